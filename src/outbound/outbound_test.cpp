#include "outbound/outbound.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace credence::outbound {
namespace {

TEST(OutboundAddresses, EachRangeIsClassified) {
  const std::vector<std::pair<std::string, AddressClass>> table = {
      {"93.184.216.34", AddressClass::kPublic},
      {"8.8.8.8", AddressClass::kPublic},
      {"2606:4700::1111", AddressClass::kPublic},
      {"127.0.0.1", AddressClass::kLoopback},
      {"127.255.0.9", AddressClass::kLoopback},
      {"::1", AddressClass::kLoopback},
      {"10.0.0.1", AddressClass::kPrivate},
      {"172.16.5.4", AddressClass::kPrivate},
      {"172.31.255.255", AddressClass::kPrivate},
      {"192.168.1.1", AddressClass::kPrivate},
      {"100.64.0.1", AddressClass::kPrivate},
      {"fd12:3456::1", AddressClass::kUniqueLocal},
      {"fc00::1", AddressClass::kUniqueLocal},
      {"169.254.1.1", AddressClass::kLinkLocal},
      {"fe80::1", AddressClass::kLinkLocal},
      {"fe80::1%eth0", AddressClass::kLinkLocal},
      {"169.254.169.254", AddressClass::kMetadata},
      {"fd00:ec2::254", AddressClass::kMetadata},
      {"::ffff:169.254.169.254", AddressClass::kMetadata},
      {"::ffff:10.1.2.3", AddressClass::kPrivate},
      {"::ffff:127.0.0.1", AddressClass::kLoopback},
      {"64:ff9b::a00:1", AddressClass::kPrivate},  // NAT64 of 10.0.0.1
      {"0.0.0.0", AddressClass::kUnspecified},
      {"::", AddressClass::kUnspecified},
      {"224.0.0.1", AddressClass::kMulticast},
      {"ff02::1", AddressClass::kMulticast},
      {"255.255.255.255", AddressClass::kReserved},
      {"192.0.2.10", AddressClass::kReserved},
      {"2001:db8::1", AddressClass::kReserved},
      {"2002:a00:1::", AddressClass::kReserved},
      {"172.15.0.1", AddressClass::kPublic},  // just outside 172.16/12
      {"172.32.0.1", AddressClass::kPublic},
  };
  for (const auto& [address, expected] : table) {
    auto c = ClassifyAddress(address);
    ASSERT_TRUE(c.has_value()) << address;
    EXPECT_EQ(AddressClassName(*c), AddressClassName(expected)) << address;
  }
  for (const char* not_an_address : {"example.com", "", "127.1", "1.2.3.4.5", "::g", "localhost"})
    EXPECT_FALSE(ClassifyAddress(not_an_address).has_value()) << not_an_address;
}

TEST(OutboundAddresses, ThePolicyOpensPrivateAndLoopbackButNeverMetadata) {
  const Policy strict;
  const Policy dev{false, true};
  const Policy operator_private{true, false};
  EXPECT_TRUE(Allowed(AddressClass::kPublic, strict));
  EXPECT_FALSE(Allowed(AddressClass::kPrivate, strict));
  EXPECT_FALSE(Allowed(AddressClass::kLoopback, strict));
  EXPECT_TRUE(Allowed(AddressClass::kLoopback, dev));
  EXPECT_FALSE(Allowed(AddressClass::kPrivate, dev));
  EXPECT_TRUE(Allowed(AddressClass::kPrivate, operator_private));
  EXPECT_TRUE(Allowed(AddressClass::kUniqueLocal, operator_private));
  for (const Policy& p : {strict, dev, operator_private, ConnectorPolicy()})
    for (auto c : {AddressClass::kLinkLocal, AddressClass::kMetadata, AddressClass::kUnspecified,
                   AddressClass::kMulticast, AddressClass::kReserved})
      EXPECT_FALSE(Allowed(c, p)) << AddressClassName(c);
}

TEST(OutboundUrls, LiteralAddressesAreRefusedAtCreation) {
  const Policy strict;
  for (const char* url : {"http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://10.0.0.7/hook",
                          "https://127.0.0.1:8443/x", "http://[::1]/", "http://localhost:9000/", "http://api.localhost/",
                          "http://0.0.0.0/", "http://[::ffff:192.168.0.1]/", "ftp://example.com/",
                          "file:///etc/passwd", "gopher://example.com/", "not a url",
                          "http:///path-only"}) {
    auto s = CheckUrl(url, strict, "config.url");
    ASSERT_FALSE(s) << url;
    EXPECT_EQ(s.error().code, "url_not_allowed") << url;
    ASSERT_EQ(s.error().fields.size(), 1U) << url;
    EXPECT_EQ(s.error().fields[0].field, "config.url");
  }
  EXPECT_TRUE(CheckUrl("https://hooks.example.com/services/T000", strict, "config.url"));
  EXPECT_TRUE(CheckUrl("http://93.184.216.34:8080/hook", strict, "config.url"));
  EXPECT_TRUE(CheckUrl("https://user:pw@hooks.example.com/in", strict, "config.url"));  // basic auth is the receiver's
  EXPECT_FALSE(CheckUrl("https://user:pw@10.0.0.1/in", strict, "config.url"));
  // Host names are checked at delivery, when they are resolved.
  EXPECT_TRUE(CheckUrl("https://intranet.corp/hook", strict, "config.url"));
  EXPECT_TRUE(CheckUrl("http://127.0.0.1:9000/", Policy{false, true}, "config.url"));
  EXPECT_TRUE(CheckUrl("http://10.0.0.7/hook", Policy{true, false}, "config.url"));
  const auto message = CheckUrl("http://169.254.169.254/", strict, "f").error().detail;
  EXPECT_NE(message.find("cloud metadata"), std::string::npos) << message;
}

TEST(OutboundUrls, DeliveryResolvesOnceChecksEveryAddressAndPinsOne) {
  const Policy strict;
  auto resolver = [](std::vector<std::string> answer) {
    return [answer](const std::string&) { return answer; };
  };
  auto pinned = Resolve("https://hooks.example.com/a?b=c", strict, resolver({"93.184.216.34"}));
  ASSERT_TRUE(pinned) << pinned.error().detail;
  EXPECT_EQ(pinned->curl_resolve_entry(), "hooks.example.com:443:93.184.216.34");
  pinned = Resolve("http://hooks.example.com:8080/", strict, resolver({"2606:4700::1111"}));
  ASSERT_TRUE(pinned);
  EXPECT_EQ(pinned->curl_resolve_entry(), "hooks.example.com:8080:[2606:4700::1111]");

  // A name that resolves to a private address, or to a public and a private
  // one (a rebinding attempt), is refused.
  for (const auto& answer : std::vector<std::vector<std::string>>{
           {"10.0.0.5"}, {"93.184.216.34", "10.0.0.5"}, {"169.254.169.254"}, {"::1"}, {"fd00:ec2::254"}}) {
    auto r = Resolve("https://rebind.example.com/", strict, resolver(answer));
    ASSERT_FALSE(r) << answer.front();
    EXPECT_EQ(r.error().code, "url_not_allowed");
    EXPECT_NE(r.error().detail.find("rebind.example.com resolves to"), std::string::npos) << r.error().detail;
  }
  auto nothing = Resolve("https://nowhere.invalid/", strict, resolver({}));
  ASSERT_FALSE(nothing);
  EXPECT_EQ(nothing.error().code, "host_unresolvable");
  // Literal addresses are not looked up.
  bool asked = false;
  auto r = Resolve("http://93.184.216.34/", strict, [&](const std::string&) {
    asked = true;
    return std::vector<std::string>{};
  });
  EXPECT_TRUE(r);
  EXPECT_FALSE(asked);
}

TEST(OutboundUrls, TheSystemResolverSeesLocalhostAsLoopback) {
  // /etc/hosts: a real name that resolves to a refused address.
  auto r = Resolve("http://localhost:9/", Policy{});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "url_not_allowed");
  EXPECT_TRUE(Resolve("http://localhost:9/", Policy{false, true}));
}

// Found by fuzz/url_address: hosts that Boost.URL and libcurl read apart,
// where a pin on our reading would not cover libcurl's connection.
TEST(OutboundUrls, HostsAreReadAsLibcurlReadsThem) {
  const Policy strict;
  // Boost.URL 1.81 reads "1.2.3.4.evil.example" as host 1.2.3.4; libcurl
  // connects to the name.
  for (const char* url : {"http://1.2.3.4.evil.example/", "http://93.184.216.34.evil.example:8080/x",
                          "http://127.0.0.1%25:808/x", "http://a%2eb.example/", "http://%31%32%37.0.0.1/",
                          "http://caf%C3%A9.example/"}) {
    auto s = CheckUrl(url, strict, "url");
    ASSERT_FALSE(s) << url;
    EXPECT_EQ(s.error().code, "url_not_allowed") << url;
    bool asked = false;
    auto r = Resolve(url, strict, [&](const std::string&) {
      asked = true;
      return std::vector<std::string>{"93.184.216.34"};
    });
    EXPECT_FALSE(r) << url;
    EXPECT_FALSE(asked) << url;
  }
  // inet_aton's numeric forms are the addresses they spell: refused at
  // creation, pinned under the name libcurl uses.
  for (const char* url : {"http://0x7f.1/", "http://2130706433/", "http://0177.0.0.1/", "http://127.1/"})
    EXPECT_FALSE(CheckUrl(url, strict, "url")) << url;
  auto pinned = Resolve("http://0x5d.184.216.34/", strict, [](const std::string&) { return std::vector<std::string>{}; });
  ASSERT_TRUE(pinned) << pinned.error().detail;
  EXPECT_EQ(pinned->curl_resolve_entry(), "93.184.216.34:80:93.184.216.34");
  EXPECT_TRUE(CheckUrl("https://hooks_1.example-corp.com/x", strict, "url"));
}

}  // namespace
}  // namespace credence::outbound
