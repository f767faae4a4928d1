#pragma once
// The HTTP side of signed chain heads, shared by the chains that have them
// (the decision ledger, the audit log; docs/trust.md "Signed chain heads"):
// an outside head given to a verify query, a head check and a page of
// signed heads as JSON, and their schemas.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>

#include "core/result.h"
#include "http/request.h"
#include "http/route.h"
#include "integrity/chain_heads.h"

namespace credence::http {

// A non-negative integer query parameter; `fallback` when absent, nullopt
// when malformed.
std::optional<int64_t> IntParam(const HttpRequest& request, std::string_view name, int64_t fallback);

// headSequence, headHash and optionally headSignedAt, headKeyId,
// headSignature: an outside head, when the query names one (400 otherwise).
Result<std::optional<integrity::OutsideHead>> OutsideHeadParams(const HttpRequest& request);
// `query` and the outside head's parameters, for a verify route's document.
std::vector<QueryParamDoc> WithOutsideHeadQuery(std::vector<QueryParamDoc> query);

// {checked, newestSequence, firstInvalid: {sequence, signedAt, outside, problem} | null}
boost::json::object HeadCheckJson(const std::optional<integrity::HeadCheck>& check);
Schema HeadCheckSchema();

// {items: [{chain, tenantId, sequence, hash, signedAt, keyId, signature}], nextCursor}
boost::json::object SignedHeadsJson(const std::vector<integrity::SignedHead>& heads, int64_t limit);
Schema SignedHeadsSchema();

}  // namespace credence::http
