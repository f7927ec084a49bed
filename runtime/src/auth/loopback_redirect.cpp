// LoopbackRedirect (loopback_redirect.hpp): Boost.Beast on one io_context that wait() runs.
#include "elicit/auth/loopback_redirect.hpp"

#include <optional>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "oauth_wire.hpp"

namespace elicit::auth {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = net::ip::tcp;

// The page the browser shows. Static text only: nothing the authorization server sent is echoed
// (no markup injection), and it says where to look next.
std::string page(bool signed_in) {
  const char* title = signed_in ? "Signed in" : "Sign-in did not complete";
  const char* text = signed_in ? "You can close this window and return to the terminal."
                               : "The authorization server did not grant access. Return to the terminal for details.";
  return std::string("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>") + title +
         "</title></head><body><h1>" + title + "</h1><p>" + text + "</p></body></html>";
}

// One browser connection: read one request within 10 s, answer, close.
struct Visit : std::enable_shared_from_this<Visit> {
  Visit(tcp::socket s, std::string p, std::string base, std::optional<std::string>& r, bool& sent)
      : socket(std::move(s)),
        timer(socket.get_executor()),
        path(std::move(p)),
        origin(std::move(base)),
        result(r),
        page_sent(sent) {}

  void start() {
    auto self = shared_from_this();
    timer.expires_after(std::chrono::seconds(10));
    timer.async_wait([self](beast::error_code ec) {
      if (!ec) self->socket.close(ec);
    });
    bhttp::async_read(socket, buffer, request, [self](beast::error_code ec, std::size_t) { self->answer(ec); });
  }

  void answer(beast::error_code ec) {
    timer.cancel();
    if (ec) return;
    const std::string target(request.target());
    const auto query = target.find('?');
    const bool ours = request.method() == bhttp::verb::get && target.substr(0, query) == path;
    bhttp::response<bhttp::string_body> res{ours ? bhttp::status::ok : bhttp::status::not_found, 11};
    res.set(bhttp::field::content_type, "text/html; charset=utf-8");
    res.set(bhttp::field::cache_control, "no-store");
    res.set("Referrer-Policy", "no-referrer");  // the code must not leak to anything the page loads
    res.set("Content-Security-Policy", "default-src 'none'");
    res.keep_alive(false);
    bool first = false;
    if (ours) {
      const auto params = query_parameters(target);
      const bool granted = params && params->count("code") != 0;
      res.body() = page(granted);
      first = !result;
      if (first) result = origin + target;  // the first response counts
    } else {
      res.body() = "not found";
    }
    res.prepare_payload();
    auto self = shared_from_this();
    auto response = std::make_shared<bhttp::response<bhttp::string_body>>(std::move(res));
    bhttp::async_write(socket, *response, [self, response, first](beast::error_code e, std::size_t) {
      self->socket.shutdown(tcp::socket::shutdown_send, e);
      if (first) self->page_sent = true;
    });
  }

  tcp::socket socket;
  net::steady_timer timer;
  std::string path, origin;
  std::optional<std::string>& result;
  bool& page_sent;
  beast::flat_buffer buffer;
  bhttp::request<bhttp::empty_body> request;
};

}  // namespace

struct LoopbackRedirect::Impl {
  net::io_context ioc{1};
  tcp::acceptor acceptor{ioc};
  std::string path;
  std::string origin;  // http://127.0.0.1:PORT
  std::optional<std::string> result;
  bool page_sent = false;  // the browser got its page for `result`

  void accept() {
    acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (ec) return;  // closed
      std::make_shared<Visit>(std::move(socket), path, origin, result, page_sent)->start();
      accept();
    });
  }
};

LoopbackRedirect::LoopbackRedirect(std::string path) : impl_(std::make_unique<Impl>()) {
  auto& i = *impl_;
  i.path = std::move(path);
  if (i.path.empty() || i.path[0] != '/') i.path.insert(0, "/");
  beast::error_code ec;
  const tcp::endpoint at(net::ip::make_address("127.0.0.1"), 0);
  i.acceptor.open(at.protocol(), ec);
  if (!ec) i.acceptor.bind(at, ec);
  if (!ec) i.acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) throw std::runtime_error("cannot listen on 127.0.0.1 for the OAuth redirect: " + ec.message());
  i.origin = "http://127.0.0.1:" + std::to_string(i.acceptor.local_endpoint().port());
  i.accept();
}

LoopbackRedirect::~LoopbackRedirect() {
  beast::error_code ec;
  impl_->acceptor.close(ec);
}

std::string LoopbackRedirect::redirect_uri() const { return impl_->origin + impl_->path; }

std::string LoopbackRedirect::wait(std::chrono::milliseconds timeout) {
  auto& i = *impl_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!i.result) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) throw RedirectTimeout("no authorization response at " + redirect_uri() + " in time");
    i.ioc.restart();
    i.ioc.run_one_for(deadline - now);
  }
  // Let the browser's page go out too, bounded: a browser that reads nothing does not hold the
  // flow up for more than a second.
  const auto page_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (!i.page_sent && std::chrono::steady_clock::now() < page_deadline) {
    i.ioc.restart();
    i.ioc.run_one_for(page_deadline - std::chrono::steady_clock::now());
  }
  auto out = std::move(*i.result);
  i.result.reset();
  i.page_sent = false;
  return out;
}

}  // namespace elicit::auth
