#include "identity/schema.h"

namespace credence::identity {

// Users are global identities (one person may belong to several tenants);
// everything a tenant owns hangs off tenant_members, keyed by tenant first.
const std::vector<storage::Migration>& Migrations() {
  static const std::vector<storage::Migration> kMigrations = {
      {100, "identity: tenants, users, memberships",
       R"sql(
CREATE TABLE tenants (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  slug TEXT NOT NULL UNIQUE,
  domain TEXT,
  allow_all_users INTEGER NOT NULL DEFAULT 0,
  enabled_languages TEXT NOT NULL DEFAULT '["en"]',
  enabled_plugins TEXT NOT NULL DEFAULT '[]',
  default_language TEXT NOT NULL DEFAULT 'en',
  created_at BIGINT NOT NULL
);
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  display_name TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE TABLE tenant_members (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id),
  role TEXT NOT NULL,
  persona TEXT,
  preferred_language TEXT,
  is_active INTEGER NOT NULL DEFAULT 1,
  joined_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, user_id)
);
CREATE UNIQUE INDEX tenant_members_persona ON tenant_members (tenant_id, persona) WHERE persona IS NOT NULL;
CREATE INDEX tenant_members_user ON tenant_members (user_id);
)sql",
       ""},
      // Groups hold tenant members (the composite foreign key to
      // tenant_members keeps a group from holding another tenant's user).
      // name_key is the name trimmed and ASCII-lowercased: names are unique
      // per tenant ignoring case. At most one Pending invitation per email.
      {101, "identity: groups, group members, invitations",
       R"sql(
CREATE TABLE groups (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  description TEXT,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, name_key)
);
CREATE TABLE group_members (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  group_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  added_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, group_id, user_id),
  FOREIGN KEY (tenant_id, group_id) REFERENCES groups (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, user_id) REFERENCES tenant_members (tenant_id, user_id) ON DELETE CASCADE
);
CREATE INDEX group_members_user ON group_members (tenant_id, user_id);
CREATE TABLE invitations (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  email TEXT NOT NULL,
  role TEXT NOT NULL,
  display_name TEXT,
  status TEXT NOT NULL,
  invited_by TEXT NOT NULL REFERENCES users(id),
  invited_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX invitations_email ON invitations (tenant_id, email);
CREATE UNIQUE INDEX invitations_pending_email ON invitations (tenant_id, email) WHERE status = 'Pending';
)sql",
       ""},
      // Tenant API keys (docs/credentials.md). The secret is kept only as its
      // SHA-256; secret_prefix (its first 15 characters) and client_id are
      // how authentication finds a key before it knows the tenant, so they
      // have their own indexes, limited to keys not revoked. Neither is
      // declared unique: both are random (47 and 95 bits), a clash only
      // costs one more hash comparison, and a unique index on a column
      // other than tenant_id would stand in the way of distributing the
      // table by tenant. Revoked keys keep their row.
      //
      // signing_keys is global: the HS256 key that signs access tokens,
      // created by the first node to start and read by every node.
      {102, "identity: tenant API keys, access-token signing key",
       R"sql(
CREATE TABLE api_keys (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  client_id TEXT NOT NULL,
  secret_prefix TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  scopes TEXT NOT NULL,
  created_by TEXT NOT NULL REFERENCES users(id),
  created_at BIGINT NOT NULL,
  expires_at BIGINT,
  revoked_at BIGINT,
  revoked_by TEXT REFERENCES users(id),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX api_keys_secret_prefix ON api_keys (secret_prefix) WHERE revoked_at IS NULL;
CREATE INDEX api_keys_client_id ON api_keys (client_id) WHERE revoked_at IS NULL;
CREATE TABLE signing_keys (
  name TEXT PRIMARY KEY,
  secret TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
)sql",
       ""},
      // App-bound keys (docs/credentials.md, "App keys"; docs/apps.md). An
      // app key is an api_keys row with app_id set (the app is a trust_apps
      // row; no foreign key, since identity comes before trust). It can be
      // disabled and enabled again (disabled_at/by) and its secret replaced
      // in place (rotated_at; secret_prefix and secret_hash change, id and
      // client_id stay). The lookup indexes of 102 still cover disabled
      // keys, so a disabled key is found and refused with its own code.
      // api_key_events is a key's history, numbered per key (seq).
      {103, "identity: app-bound keys, key history",
       R"sql(
ALTER TABLE api_keys ADD COLUMN app_id TEXT;
ALTER TABLE api_keys ADD COLUMN disabled_at BIGINT;
ALTER TABLE api_keys ADD COLUMN disabled_by TEXT REFERENCES users(id);
ALTER TABLE api_keys ADD COLUMN rotated_at BIGINT;
CREATE INDEX api_keys_app ON api_keys (tenant_id, app_id, created_at) WHERE app_id IS NOT NULL;
CREATE TABLE api_key_events (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  key_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event TEXT NOT NULL,
  at BIGINT NOT NULL,
  by_user_id TEXT REFERENCES users(id),
  PRIMARY KEY (tenant_id, key_id, seq),
  FOREIGN KEY (tenant_id, key_id) REFERENCES api_keys (tenant_id, id) ON DELETE CASCADE
);
)sql",
       ""},
      // Sign-in (docs/sign-in.md). user_identities links a provider's
      // (issuer, subject) to a user; sessions hold only the SHA-256 of their
      // token, and a tenant once one is selected; oidc_login_requests keep a
      // login between the redirect to the provider and its callback (state,
      // the hash of the browser-binding cookie, nonce, PKCE verifier), marked
      // used so a replayed callback is refused. tenants.created_by counts a
      // user's tenant creations for the rate limit of POST /api/tenant/create.
      {104, "identity: sign-in identities, sessions, pending logins",
       R"sql(
CREATE TABLE user_identities (
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users(id),
  email TEXT,
  linked_at BIGINT NOT NULL,
  last_sign_in_at BIGINT NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX user_identities_user ON user_identities (user_id);
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id),
  tenant_id TEXT REFERENCES tenants(id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  ended_at BIGINT,
  client_address TEXT,
  user_agent TEXT
);
CREATE INDEX sessions_user_tenant ON sessions (user_id, tenant_id) WHERE ended_at IS NULL;
CREATE TABLE oidc_login_requests (
  state TEXT PRIMARY KEY,
  browser_hash TEXT NOT NULL,
  provider TEXT NOT NULL,
  nonce TEXT NOT NULL,
  code_verifier TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE INDEX oidc_login_requests_created ON oidc_login_requests (created_at);
ALTER TABLE tenants ADD COLUMN created_by TEXT REFERENCES users(id);
CREATE INDEX tenants_created_by ON tenants (created_by, created_at) WHERE created_by IS NOT NULL;
)sql",
       ""},
      // Invitations that expire, are revoked and accepted (docs/sign-in.md,
      // "Invitations"). expires_at is set on every new invitation; rows
      // written before it get invited_at + 14 days. `status` stores Pending,
      // Accepted, Revoked or Expired; a Pending row whose expires_at has
      // passed reads as Expired (derived from the clock), and is stored as
      // Expired only when a new invitation for the email replaces it (the
      // partial unique index allows one Pending row per email).
      // invitations_pending_by_email finds a signing-in user's invitations in
      // every tenant (a global lookup, like the API keys' prefix index).
      // tenant_members.removed_at/removed_by record who removed a member;
      // a removed member (an inactive row) does not rejoin a tenant by its
      // email domain, only through a new invitation. tenants_domain serves
      // the domain join at sign-in.
      {106, "identity: invitation expiry, revocation and acceptance; member removal; domain join",
       R"sql(
ALTER TABLE invitations ADD COLUMN expires_at BIGINT;
ALTER TABLE invitations ADD COLUMN accepted_at BIGINT;
ALTER TABLE invitations ADD COLUMN accepted_user_id TEXT REFERENCES users(id);
ALTER TABLE invitations ADD COLUMN revoked_at BIGINT;
ALTER TABLE invitations ADD COLUMN revoked_by TEXT REFERENCES users(id);
UPDATE invitations SET expires_at = invited_at + 1209600000 WHERE expires_at IS NULL;
CREATE INDEX invitations_pending_by_email ON invitations (email) WHERE status = 'Pending';
ALTER TABLE tenant_members ADD COLUMN removed_at BIGINT;
ALTER TABLE tenant_members ADD COLUMN removed_by TEXT REFERENCES users(id);
CREATE INDEX tenants_domain ON tenants (LOWER(domain)) WHERE allow_all_users = 1;
)sql",
       ""},
      // Tenant keys with the scope connector:push name the one connector
      // they push to (docs/credentials.md, docs/connectors.md). No foreign
      // key: connectors come after identity.
      {107, "identity: api keys bound to a connector", "ALTER TABLE api_keys ADD COLUMN connector_id TEXT", ""},
      // SCIM provisioning (docs/scim.md). A provisioned user is a user and a
      // membership like any other, plus a scim_users row: what the identity
      // provider owns (userName, unique per tenant ignoring case through
      // user_name_key; externalId; active; the SCIM representation as JSON)
      // and a version for the ETag. scim_groups holds the same for groups
      // that SCIM has touched (externalId, version); the group itself is a
      // groups row. Both go with their user or group row.
      {108, "identity: SCIM provisioned users and groups",
       R"sql(
CREATE TABLE scim_users (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  user_name TEXT NOT NULL,
  user_name_key TEXT NOT NULL,
  external_id TEXT,
  active INTEGER NOT NULL,
  resource TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  version BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, user_id),
  UNIQUE (tenant_id, user_name_key),
  FOREIGN KEY (tenant_id, user_id) REFERENCES tenant_members (tenant_id, user_id) ON DELETE CASCADE
);
CREATE INDEX scim_users_external_id ON scim_users (tenant_id, external_id) WHERE external_id IS NOT NULL;
CREATE TABLE scim_groups (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  group_id TEXT NOT NULL,
  external_id TEXT,
  updated_at BIGINT NOT NULL,
  version BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, group_id),
  FOREIGN KEY (tenant_id, group_id) REFERENCES groups (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX scim_groups_external_id ON scim_groups (tenant_id, external_id) WHERE external_id IS NOT NULL;
)sql",
       ""},
  };
  return kMigrations;
}

}  // namespace credence::identity
