#include "connection_pool.hpp"

#include <pthread.h>

#include <ctime>
#include <stdexcept>
#include <utility>

namespace elicit::redis_detail {

timeval to_timeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>(ms.count() % 1000 * 1000);
  return tv;
}

SigpipeBlock::SigpipeBlock() noexcept {
  sigemptyset(&pipe_);
  sigaddset(&pipe_, SIGPIPE);
  sigset_t pending;
  sigemptyset(&pending);
  was_pending_ = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
  pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
}

SigpipeBlock::~SigpipeBlock() {
  sigset_t pending;
  sigemptyset(&pending);
  if (!was_pending_ && sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1) {
    const timespec zero{0, 0};
    sigtimedwait(&pipe_, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old_, nullptr);
}

void check_options(const RedisOptions& options, const char* who) {
  if (options.port < 1 || options.port > 65535) throw std::invalid_argument(std::string(who) + ": port out of range");
  if (options.connect_timeout <= std::chrono::milliseconds::zero() ||
      options.command_timeout <= std::chrono::milliseconds::zero()) {
    throw std::invalid_argument(std::string(who) + ": timeouts must be positive");
  }
}

Connection connect(const RedisOptions& options, std::string* why) {
  const auto fail = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return nullptr;
  };
  const auto address = options.host + ":" + std::to_string(options.port);
  Connection c(redisConnectWithTimeout(options.host.c_str(), options.port, to_timeval(options.connect_timeout)));
  if (!c) return fail("cannot connect to " + address + ": out of memory");
  if (c->err != 0) return fail("cannot connect to " + address + ": " + c->errstr);
  if (redisSetTimeout(c.get(), to_timeval(options.command_timeout)) != REDIS_OK) {
    return fail("cannot set the command timeout on the connection to " + address + ": " + c->errstr);
  }
  if (options.password) {
    const std::string& password = *options.password;
    Reply reply(static_cast<redisReply*>(redisCommand(c.get(), "AUTH %b", password.data(), password.size())));
    if (!reply) return fail("no answer to AUTH from " + address + ": " + c->errstr);
    if (reply->type == REDIS_REPLY_ERROR) {
      return fail("AUTH refused by " + address + ": " + std::string(reply->str, reply->len));
    }
  }
  return c;
}

ConnectionPool::ConnectionPool(RedisOptions options, std::size_t max_idle)
    : options_(std::move(options)), max_idle_(max_idle) {}

void report_error(const RedisOptions& options) noexcept {
  if (!options.on_error) return;
  try {
    options.on_error();
  } catch (...) {
    // documented: swallowed; a metric's failure must not fail the store
  }
}

Reply ConnectionPool::run(const std::vector<std::string_view>& argv) {
  auto reply = attempt(argv);
  if (!reply || reply->type == REDIS_REPLY_ERROR) report_error(options_);
  return reply;
}

Reply ConnectionPool::attempt(const std::vector<std::string_view>& argv) {
  const SigpipeBlock block;
  Connection c;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      c = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  if (c) {
    if (Reply reply = command_on(std::move(c), argv)) return reply;
    std::vector<Connection> stale;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stale.swap(idle_);
    }
  }  // `stale` closed here, outside the lock
  c = connect(options_);
  if (!c) return nullptr;
  return command_on(std::move(c), argv);
}

// The reply, and `c` back among the idle connections; null (and `c` closed) on an I/O error.
Reply ConnectionPool::command_on(Connection c, const std::vector<std::string_view>& argv) {
  std::vector<const char*> args;
  std::vector<std::size_t> lengths;
  args.reserve(argv.size());
  lengths.reserve(argv.size());
  for (const auto a : argv) {
    args.push_back(a.data());
    lengths.push_back(a.size());
  }
  Reply reply(
      static_cast<redisReply*>(redisCommandArgv(c.get(), static_cast<int>(args.size()), args.data(), lengths.data())));
  if (!reply || c->err != 0) return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  if (idle_.size() < max_idle_) idle_.push_back(std::move(c));
  return reply;  // (`c`, when not kept, is closed after the lock is released)
}

}  // namespace elicit::redis_detail
