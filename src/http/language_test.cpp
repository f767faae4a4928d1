#include "http/language.h"

#include <gtest/gtest.h>

#include <string>

#include "http/problem.h"

namespace credence::http {
namespace {

HttpRequest WithAcceptLanguage(std::string value) {
  HttpRequest r;
  r.headers = {{"accept-language", std::move(value)}};
  return r;
}

std::string_view FromHeader(std::string value) { return TextLanguage(WithAcceptLanguage(std::move(value)), nullptr); }

TEST(TextLanguage, EnglishWithoutAcceptLanguage) { EXPECT_EQ(TextLanguage(HttpRequest{}, nullptr), "en"); }

TEST(TextLanguage, TheFirstLanguageOfTheHighestQualityByItsPrimarySubtag) {
  EXPECT_EQ(FromHeader("es-ES,es;q=0.9,en;q=0.8"), "es");
  EXPECT_EQ(FromHeader("en;q=0.5, es-MX;q=0.7"), "es");
  EXPECT_EQ(FromHeader("ES"), "es");
  EXPECT_EQ(FromHeader("en-GB, es"), "en");
  EXPECT_EQ(FromHeader("es;q=0, en;q=0.1"), "en");
  EXPECT_EQ(FromHeader("*, es;q=0.5"), "es");
}

TEST(TextLanguage, ALanguageWithoutTextsIsEnglish) {
  EXPECT_EQ(FromHeader("de, es;q=0.5"), "en");  // as the web client: the browser's first language decides
  EXPECT_EQ(FromHeader("espanol"), "en");
}

TEST(TextLanguage, ThePreferredLanguageWinsOverAcceptLanguage) {
  identity::Principal principal;
  principal.preferred_language = "es";
  EXPECT_EQ(TextLanguage(WithAcceptLanguage("en"), &principal), "es");
  principal.preferred_language = "de";
  EXPECT_EQ(TextLanguage(WithAcceptLanguage("es"), &principal), "en");
  principal.preferred_language.reset();
  EXPECT_EQ(TextLanguage(WithAcceptLanguage("es"), &principal), "es");
}

std::string LanguageHeaderOf(const HttpResponse& response, std::string_view name) {
  for (const auto& [n, v] : response.headers)
    if (n == name) return v;
  return {};
}

TEST(ProblemInALanguage, TitleAndFixedDetailInSpanishTypeAndCodeUnchanged) {
  const HttpResponse es = ProblemResponse(Error::Validation({{"name", "is required"}}), "/api/hubs", "r", "es");
  EXPECT_NE(es.body.find(R"("type":"urn:credence:problem:validation_failed","title":"Solicitud incorrecta")"),
            std::string::npos)
      << es.body;
  EXPECT_NE(es.body.find(R"("detail":"El cuerpo de la solicitud no superó la validación.")"), std::string::npos);
  EXPECT_NE(es.body.find(R"("code":"validation_failed")"), std::string::npos);
  EXPECT_NE(es.body.find(R"("message":"is required")"), std::string::npos);  // field messages stay
  EXPECT_EQ(LanguageHeaderOf(es, "Content-Language"), "es");

  const HttpResponse en = ProblemResponse(Error::Validation({}), "/api/hubs", "r");
  EXPECT_NE(en.body.find(R"("title":"Bad Request")"), std::string::npos);
  EXPECT_NE(en.body.find(R"("detail":"The request body failed validation.")"), std::string::npos);
  EXPECT_EQ(LanguageHeaderOf(en, "Content-Language"), "en");
}

TEST(ProblemInALanguage, AComposedDetailStaysAsWritten) {
  const HttpResponse r = ProblemResponse(Error::NotFound("Hub 'hr' not found."), "/", "r", "es");
  EXPECT_NE(r.body.find(R"("title":"No encontrado")"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find(R"("detail":"Hub 'hr' not found.")"), std::string::npos);
  // The same English text under another code is not a fixed detail.
  const HttpResponse other =
      ProblemResponse(Error::InvalidArgument("other", "The request body failed validation."), "/", "r", "es");
  EXPECT_NE(other.body.find(R"("detail":"The request body failed validation.")"), std::string::npos);
}

TEST(ProblemInALanguage, EveryStatusHasASpanishTitle) {
  for (const ErrorKind kind :
       {ErrorKind::kInvalidArgument, ErrorKind::kUnauthenticated, ErrorKind::kPermissionDenied, ErrorKind::kNotFound,
        ErrorKind::kMethodNotAllowed, ErrorKind::kConflict, ErrorKind::kGone, ErrorKind::kPayloadTooLarge,
        ErrorKind::kGuardDenied, ErrorKind::kRateLimited, ErrorKind::kUpstreamFailed, ErrorKind::kUnavailable,
        ErrorKind::kInternal}) {
    const Error error{kind, "x", "y", {}, {}};
    const std::string en = ProblemResponse(error, "/", "r").body;
    const std::string es = ProblemResponse(error, "/", "r", "es").body;
    EXPECT_NE(en.substr(0, en.find(",\"status\"")), es.substr(0, es.find(",\"status\""))) << es;
  }
}

}  // namespace
}  // namespace credence::http
