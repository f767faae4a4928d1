#pragma once
// The language of the text the server composes (issue 26): report titles and
// descriptions, plugin names and descriptions, problem titles and the fixed
// problem details. It follows the interface language as the web client picks
// it: the caller's preferred language (PUT /api/users/me/preferred-language)
// when set, else the first language of Accept-Language by q-value. Only the
// primary subtag counts ("es-MX" is "es"); a language the server has no text
// in answers English. docs/web-client.md, "Interface language".
#include <string_view>

#include "http/request.h"
#include "http/route.h"
#include "identity/principal.h"

namespace credence::http {

// Every language the server writes its texts in, English first (the
// default). The web client is translated into the same ones (web/src/i18n.ts).
inline constexpr std::string_view kTextLanguages[] = {"en", "es"};

// One of kTextLanguages (a static string). `principal` may be null (not
// signed in, or not yet authenticated).
std::string_view TextLanguage(const HttpRequest& request, const identity::Principal* principal);
inline std::string_view TextLanguage(const RequestContext& ctx) {
  return TextLanguage(ctx.request, ctx.principal ? &*ctx.principal : nullptr);
}

// The Content-Language header, naming `language`, for an answer holding text
// composed in it.
void AddContentLanguage(HttpResponse& response, std::string_view language);

}  // namespace credence::http
