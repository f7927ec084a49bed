#include "elicit/jsonrpc/stdio_transport.hpp"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <string>
#include <string_view>

namespace elicit::jsonrpc {

StdioTransport::StdioTransport(StdioOptions options) : options_(options) {
  if (pipe(wake_pipe_) != 0) wake_pipe_[0] = wake_pipe_[1] = -1;
}

StdioTransport::~StdioTransport() {
  close();
  if (reader_.joinable()) {
    if (reader_.get_id() == std::this_thread::get_id()) {
      reader_.detach();
    } else {
      reader_.join();
    }
  }
  for (int fd : wake_pipe_) {
    if (fd >= 0) ::close(fd);
  }
}

void StdioTransport::start(MessageHandler on_message, CloseHandler on_close) {
  // A client that exits mid-write must not kill the server with SIGPIPE; write() reports EPIPE.
  struct sigaction current {};
  if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) std::signal(SIGPIPE, SIG_IGN);
  reader_ = std::thread([this, on_message = std::move(on_message), on_close = std::move(on_close)] {
    std::string pending;
    bool skipping = false;  // inside an over-long line, dropping bytes until its newline
    char buf[65536];
    while (!closed_) {
      pollfd fds[2] = {{options_.in_fd, POLLIN, 0}, {wake_pipe_[0], POLLIN, 0}};
      const int ready = poll(fds, wake_pipe_[0] >= 0 ? 2 : 1, -1);
      if (ready < 0) {
        if (errno == EINTR) continue;
        break;
      }
      if (fds[1].revents != 0 || closed_) break;
      const ssize_t n = read(options_.in_fd, buf, sizeof buf);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) break;  // EOF or error: the client is gone
      std::string_view chunk(buf, static_cast<std::size_t>(n));
      while (!chunk.empty()) {
        const auto nl = chunk.find('\n');
        const auto part = chunk.substr(0, nl);
        if (!skipping) {
          if (pending.size() + part.size() > options_.max_message_bytes) {
            std::fprintf(stderr, "elicit: dropping a message longer than %zu bytes\n", options_.max_message_bytes);
            pending.clear();
            skipping = true;
          } else {
            pending.append(part);
          }
        }
        if (nl == std::string_view::npos) break;
        chunk.remove_prefix(nl + 1);
        if (!skipping && !pending.empty() && pending.back() == '\r') pending.pop_back();
        if (!skipping && !pending.empty()) on_message(std::move(pending));
        pending.clear();
        skipping = false;
      }
    }
    closed_ = true;
    if (on_close) on_close();
  });
}

bool StdioTransport::send(std::string message, const SendContext&) {
  if (closed_) return false;
  message += '\n';
  std::lock_guard<std::mutex> lock(write_mutex_);
  const char* p = message.data();
  std::size_t left = message.size();
  while (left > 0) {
    const ssize_t n = write(options_.out_fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

void StdioTransport::close() {
  if (closed_.exchange(true)) return;
  if (wake_pipe_[1] >= 0) {
    const char x = 1;
    [[maybe_unused]] const auto n = write(wake_pipe_[1], &x, 1);
  }
}

}  // namespace elicit::jsonrpc
