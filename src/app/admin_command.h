#pragma once
// `credence admin ...`: an operator's commands that need no running server
// and no sign-in, for a fresh installation (README, "Running Credence for a
// company"):
//
//   credence admin create-tenant --name NAME --slug SLUG --owner-email EMAIL
//       [--owner-name NAME] [--domain DOMAIN] [--allow-all-users]
//       [--languages en,de] [--database URL] [--data-dir DIR]
//
// creates the tenant and its first Owner, who then signs in with OpenID
// Connect and is linked by verified email.
//
//   credence admin migrate-database --from sqlite:PATH --to postgresql://...
//
// moves an installation from SQLite to PostgreSQL (app/migrate_database.h).
//
//   credence admin backup --out DIR ...
//   credence admin restore --from DIR ...
//
// make an online backup and restore it into an empty store, checked
// (app/backup_restore.h).
#include <string>
#include <vector>

namespace credence::app {

// Returns the process exit code; prints the result (JSON) on stdout and
// errors on stderr.
int RunAdminCommand(const std::vector<std::string>& args);

}  // namespace credence::app
