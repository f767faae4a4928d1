#pragma once
// Plain HTTP request and response values. Handlers see only these; Beast
// stays inside http/server/.
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace credence::http {

enum class Method { kGet, kHead, kPost, kPut, kPatch, kDelete, kOptions, kOther };

std::string_view MethodName(Method m);
Method ParseMethod(std::string_view name);

struct HttpRequest {
  Method method = Method::kGet;
  std::string method_name;
  std::string target;  // as received: path and query, percent-encoded
  std::vector<std::pair<std::string, std::string>> headers;  // names lowercased
  std::string body;
  // The socket peer's IP address (set by the server; empty in unit tests).
  // Never taken from a header: X-Forwarded-For is whatever the client says.
  std::string client_address;

  std::string_view path() const;   // target before '?', still encoded
  std::string_view query() const;  // target after '?', still encoded
  // The header value, or empty. `lowercase_name` must be lowercase.
  std::string_view Header(std::string_view lowercase_name) const;
  // The first decoded value of a query parameter.
  std::optional<std::string> QueryParam(std::string_view name) const;
  // Every query parameter, percent-decoded (a malformed escape kept raw), in order.
  std::vector<std::pair<std::string, std::string>> QueryParams() const;
};

class PendingResponse;

struct HttpResponse {
  int status = 200;
  std::string content_type;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  // Set when the handler finishes later (PendingResponse); then the fields
  // above are unused and the pending response makes the real one.
  std::shared_ptr<PendingResponse> pending;

  HttpResponse& WithHeader(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
    return *this;
  }
};

// A response a handler finishes later, so that a request waiting on
// something slow (the ledger's group commit) holds no server thread while it
// waits. The handler makes one, starts the work with a completion that
// calls Ready() (from any thread), sets the step that builds the answer, and
// returns Deferred(pending). The server resumes the request when it is
// ready and calls Finish() on the connection's own thread.
class PendingResponse {
 public:
  using Step = std::function<HttpResponse()>;

  // By the handler, before it returns.
  void SetFinish(Step finish) { finish_ = std::move(finish); }
  // By the dispatcher, before it returns: runs around the handler's step
  // (error mapping, the access log line).
  void Wrap(std::function<HttpResponse(const Step&)> outer) {
    finish_ = [inner = std::move(finish_), outer = std::move(outer)] { return outer(inner); };
  }
  // Once, from any thread.
  void Ready() {
    std::function<void()> resume;
    {
      std::lock_guard lock(mu_);
      ready_ = true;
      resume = std::move(resume_);
    }
    if (resume) resume();
  }
  // By the server, once: `resume` runs when Ready() is called, on that
  // thread, or at once when it was called already.
  void OnReady(std::function<void()> resume) {
    {
      std::lock_guard lock(mu_);
      if (!ready_) {
        resume_ = std::move(resume);
        return;
      }
    }
    resume();
  }
  // By the server, after resuming.
  HttpResponse Finish() const { return finish_(); }

 private:
  std::mutex mu_;
  bool ready_ = false;
  std::function<void()> resume_;
  Step finish_;
};

inline HttpResponse Deferred(std::shared_ptr<PendingResponse> pending) {
  HttpResponse r;
  r.pending = std::move(pending);
  return r;
}

// Decodes %XX escapes (and '+' as space when `plus_is_space`); nullopt for a
// malformed escape.
std::optional<std::string> PercentDecode(std::string_view in, bool plus_is_space = false);

// Splits an application/x-www-form-urlencoded string into decoded pairs.
// nullopt when an escape is malformed.
std::optional<std::vector<std::pair<std::string, std::string>>> ParseFormUrlEncoded(std::string_view in);

}  // namespace credence::http
