#include "http/problem.h"

#include <iterator>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "core/json_text.h"

namespace credence::http {

int StatusFor(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument: return 400;
    case ErrorKind::kUnauthenticated: return 401;
    case ErrorKind::kPermissionDenied: return 403;
    case ErrorKind::kNotFound: return 404;
    case ErrorKind::kMethodNotAllowed: return 405;
    case ErrorKind::kConflict: return 409;
    case ErrorKind::kGone: return 410;
    case ErrorKind::kPayloadTooLarge: return 413;
    case ErrorKind::kGuardDenied: return 422;
    case ErrorKind::kRateLimited: return 429;
    case ErrorKind::kUpstreamFailed: return 502;
    case ErrorKind::kUnavailable: return 503;
    case ErrorKind::kInternal: return 500;
  }
  return 500;
}

namespace {

struct StatusTitle {
  int status;
  std::string_view en, es;
};

// RFC 9110's reason phrases, and Spanish beside them (issue 26: the text the
// server composes follows the interface language, http/language.h).
constexpr StatusTitle kTitles[] = {
    {400, "Bad Request", "Solicitud incorrecta"},
    {401, "Unauthorized", "No autenticado"},
    {403, "Forbidden", "Prohibido"},
    {404, "Not Found", "No encontrado"},
    {405, "Method Not Allowed", "Método no permitido"},
    {408, "Request Timeout", "Tiempo de espera de la solicitud agotado"},
    {409, "Conflict", "Conflicto"},
    {410, "Gone", "Ya no está disponible"},
    {413, "Content Too Large", "Contenido demasiado grande"},
    {422, "Unprocessable Content", "Contenido no procesable"},
    {429, "Too Many Requests", "Demasiadas solicitudes"},
    {431, "Request Header Fields Too Large", "Campos de cabecera de la solicitud demasiado grandes"},
    {500, "Internal Server Error", "Error interno del servidor"},
    {502, "Bad Gateway", "Puerta de enlace incorrecta"},
    {503, "Service Unavailable", "Servicio no disponible"},
};

std::string_view Title(int status, std::string_view language) {
  const StatusTitle* title = &kTitles[std::size(kTitles) - 3];  // 500 for anything unlisted
  for (const auto& t : kTitles)
    if (t.status == status) title = &t;
  return language == "es" ? title->es : title->en;
}

struct FixedDetail {
  std::string_view code, en, es;
};

// The details that are fixed texts, not composed of names or values, and that
// any route may answer: the schema layer's, authentication's and the
// dispatcher's own. A detail is given in Spanish only when it is exactly one
// of these (same code, same English); every other stays as written.
constexpr FixedDetail kFixedDetails[] = {
    {"validation_failed", "The request body failed validation.",
     "El cuerpo de la solicitud no superó la validación."},
    {"malformed_json", "A JSON request body is required.", "Hace falta un cuerpo de solicitud JSON."},
    {"malformed_json", "The request body holds a number beyond the range of a double.",
     "El cuerpo de la solicitud contiene un número fuera del rango de un double."},
    {"missing_credentials", "This endpoint needs a bearer token.",
     "Este punto de acceso necesita un token de portador (Bearer)."},
    {"invalid_token", "The token is not recognized.", "El token no se reconoce."},
    {"invalid_token", "The bearer token is empty.", "El token de portador está vacío."},
    {"invalid_token", "The Authorization header must use the Bearer scheme.",
     "La cabecera Authorization debe usar el esquema Bearer."},
    {"invalid_token", "The session cookie does not hold a session; sign in again.",
     "La cookie de sesión no contiene ninguna sesión; vuelve a iniciar sesión."},
    {"invalid_token", "The access token is malformed.", "El token de acceso está mal formado."},
    {"invalid_token", "The access token has expired.", "El token de acceso ha caducado."},
    {"csrf_header_missing",
     "A request signed in by the session cookie that changes something must carry the X-Credence-CSRF header (any "
     "value); API clients send Authorization: Bearer instead.",
     "Una solicitud autenticada con la cookie de sesión que cambia algo debe llevar la cabecera X-Credence-CSRF "
     "(con cualquier valor); los clientes de la API envían Authorization: Bearer en su lugar."},
    {"tenant_not_selected", "Select a tenant first: GET /auth/tenants, then POST /auth/select-tenant.",
     "Selecciona primero una organización: GET /auth/tenants y después POST /auth/select-tenant."},
    {"invalid_path_parameter", "A path parameter is malformed.", "Un parámetro de la ruta está mal formado."},
    {"invalid_query_parameter", "A query parameter is not UTF-8.", "Un parámetro de consulta no es UTF-8."},
    {"invalid_path", "The path contains a malformed percent-escape.",
     "La ruta contiene un escape de porcentaje mal formado."},
    {"conflict", "The request conflicts with existing data.", "La solicitud choca con datos existentes."},
    {"storage_full", "The store is out of space; nothing was written. Retry later.",
     "El almacén no tiene espacio; no se escribió nada. Vuelve a intentarlo más tarde."},
    {"storage_io_error", "The store failed to read or write; nothing was written. Retry later.",
     "El almacén no pudo leer o escribir; no se escribió nada. Vuelve a intentarlo más tarde."},
    {"storage_unavailable", "The store is busy; retry shortly.",
     "El almacén está ocupado; vuelve a intentarlo en un momento."},
    {"internal_error", "An internal error occurred; quote the request id when reporting it.",
     "Se produjo un error interno; indica el identificador de la solicitud al informar de él."},
};

std::string_view Detail(const Error& error, std::string_view language) {
  if (language == "es")
    for (const auto& d : kFixedDetails)
      if (d.code == error.code && d.en == error.detail) return d.es;
  return error.detail;
}

// Extension values are JSON; headers want the plain string.
std::string Unquote(const std::string& json_value) {
  boost::system::error_code ec;
  auto v = boost::json::parse(json_value, ec);
  if (!ec && v.is_string()) return std::string(v.get_string());
  return json_value;
}

}  // namespace

HttpResponse ProblemResponse(const Error& error, std::string_view instance, std::string_view request_id,
                             std::string_view language) {
  HttpResponse r;
  r.status = error.kind == ErrorKind::kInvalidArgument && error.code == "headers_too_large" ? 431
             : error.code == "request_timeout"                                            ? 408
                                                                                          : StatusFor(error.kind);
  r.content_type = "application/problem+json";
  r.WithHeader("Content-Language", std::string(language));
  std::string& b = r.body;
  b.reserve(256);
  b += "{\"type\":";
  AppendJsonString(b, "urn:credence:problem:" + error.code);
  b += ",\"title\":";
  AppendJsonString(b, Title(r.status, language));
  b += ",\"status\":" + std::to_string(r.status) + ",\"detail\":";
  AppendJsonString(b, Detail(error, language));
  b += ",\"code\":";
  AppendJsonString(b, error.code);
  if (!error.fields.empty()) {
    b += ",\"errors\":[";
    for (size_t i = 0; i < error.fields.size(); ++i) {
      if (i > 0) b += ',';
      b += "{\"field\":";
      AppendJsonString(b, error.fields[i].field);
      b += ",\"message\":";
      AppendJsonString(b, error.fields[i].message);
      b += '}';
    }
    b += ']';
  }
  b += ",\"instance\":";
  AppendJsonString(b, instance);
  b += ",\"requestId\":";
  AppendJsonString(b, request_id);
  for (const auto& [key, json_value] : error.extensions) {
    b += ',';
    AppendJsonString(b, key);
    b += ':';
    b += json_value;
  }
  b += '}';

  if (r.status == 401) {
    std::string challenge = "Bearer realm=\"credence\"";
    // A disabled or expired app key is an invalid token to RFC 6750 too.
    if (error.code == "invalid_token" || error.code == "key_disabled" || error.code == "key_expired")
      challenge += ", error=\"invalid_token\"";
    r.WithHeader("WWW-Authenticate", challenge);
  } else if (r.status == 403) {
    if (const std::string* scope = error.Extension("scope"))
      r.WithHeader("WWW-Authenticate",
                   "Bearer realm=\"credence\", error=\"insufficient_scope\", scope=\"" + Unquote(*scope) + "\"");
  } else if (r.status == 405) {
    if (const std::string* allow = error.Extension("allow")) r.WithHeader("Allow", Unquote(*allow));
  }
  // Rate limits (429), and what is not ready yet (a receipt's checkpoint,
  // 409). The dispatcher sets its 503s' own.
  if (r.status == 429 || r.status == 409)
    if (const std::string* retry = error.Extension("retryAfter")) r.WithHeader("Retry-After", Unquote(*retry));
  return r;
}

}  // namespace credence::http
