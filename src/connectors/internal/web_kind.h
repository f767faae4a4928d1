#pragma once
// The web kind (docs/connectors.md, "web"): the crawler of
// connectors/web/crawler.h (library credence_connectors_web) adapted to a
// run.
#include <optional>

#include "connectors/connector.h"
#include "connectors/credential.h"
#include "connectors/internal/run_writer.h"

namespace credence::connectors::internal {

// Crawls, writing pages as they come: external id = the requested URL, url
// = the page's URL, validators kept for conditional requests next time; a
// page answered 404 or 410 is removed, other failures are recorded with
// the page. A crawl that was neither truncated nor failed removes the
// documents it did not see. Throws on a failure of the whole crawl.
// `credential`, if any, goes to the start URL's origin only.
void SyncWeb(RunWriter& writer, const Run& run, const std::optional<Credential>& credential);

}  // namespace credence::connectors::internal
