#include "core/json_parse.h"

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/error.hpp>
#include <boost/json/parse_options.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_stack.hpp>

#include <charconv>
#include <string>

namespace credence {
namespace json = boost::json;
namespace {

// Boost's detail::handler, but for on_double.
struct ExactNumberHandler {
  static constexpr std::size_t max_object_size = json::object::max_size();
  static constexpr std::size_t max_array_size = json::array::max_size();
  static constexpr std::size_t max_key_size = json::string::max_size();
  static constexpr std::size_t max_string_size = json::string::max_size();

  json::value_stack st;
  std::string number;  // the parts of a number split across writes (not with one write, but kept exact)

  ExactNumberHandler(json::storage_ptr sp, unsigned char* buffer, std::size_t size) : st(std::move(sp), buffer, size) {}

  bool on_document_begin(json::error_code&) { return true; }
  bool on_document_end(json::error_code&) { return true; }
  bool on_object_begin(json::error_code&) { return true; }
  bool on_object_end(std::size_t n, json::error_code&) {
    st.push_object(n);
    return true;
  }
  bool on_array_begin(json::error_code&) { return true; }
  bool on_array_end(std::size_t n, json::error_code&) {
    st.push_array(n);
    return true;
  }
  bool on_key_part(json::string_view s, std::size_t, json::error_code&) {
    st.push_chars(s);
    return true;
  }
  bool on_key(json::string_view s, std::size_t, json::error_code&) {
    st.push_key(s);
    return true;
  }
  bool on_string_part(json::string_view s, std::size_t, json::error_code&) {
    st.push_chars(s);
    return true;
  }
  bool on_string(json::string_view s, std::size_t, json::error_code&) {
    st.push_string(s);
    return true;
  }
  bool on_number_part(json::string_view s, json::error_code&) {
    number.append(s.data(), s.size());
    return true;
  }
  bool on_int64(std::int64_t i, json::string_view, json::error_code&) {
    number.clear();
    st.push_int64(i);
    return true;
  }
  bool on_uint64(std::uint64_t u, json::string_view, json::error_code&) {
    number.clear();
    st.push_uint64(u);
    return true;
  }
  bool on_double(double d, json::string_view s, json::error_code&) {
    std::string_view text(s.data(), s.size());
    if (!number.empty()) {
      number.append(s.data(), s.size());
      text = number;
    }
    double exact = 0;
    // Out of range keeps Boost's value: infinity beyond a double (which
    // AllNumbersFinite refuses) and zero or a subnormal below.
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), exact);
    if (error == std::errc() && end == text.data() + text.size()) d = exact;
    number.clear();
    st.push_double(d);
    return true;
  }
  bool on_bool(bool b, json::error_code&) {
    st.push_bool(b);
    return true;
  }
  bool on_null(json::error_code&) {
    st.push_null();
    return true;
  }
  bool on_comment_part(json::string_view, json::error_code&) { return true; }
  bool on_comment(json::string_view, json::error_code&) { return true; }
};

}  // namespace

json::value ParseJson(std::string_view text, boost::system::error_code& ec, const json::parse_options& options) {
  unsigned char temp[BOOST_JSON_STACK_BUFFER_SIZE];
  json::basic_parser<ExactNumberHandler> parser(options, json::storage_ptr(), temp, sizeof temp);
  parser.handler().st.reset(json::storage_ptr());
  json::error_code jec;
  const std::size_t used = parser.write_some(false, text.data(), text.size(), jec);
  if (!jec && used < text.size()) jec = json::error::extra_data;
  if (!jec && !parser.done()) jec = json::error::incomplete;
  if (jec) {
    ec = jec;
    return nullptr;
  }
  ec = {};
  return parser.handler().st.release();
}

json::value ParseJson(std::string_view text, boost::system::error_code& ec) {
  return ParseJson(text, ec, json::parse_options{});
}

}  // namespace credence
