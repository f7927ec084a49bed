// The MCP stdio transport (MCP 2025-11-25, Transports, "stdio"): newline-delimited JSON-RPC
// messages on standard input and output. Nothing else may be written to stdout; logs go to stderr.
#pragma once

#include <atomic>
#include <cstddef>
#include <mutex>
#include <thread>

#include "elicit/jsonrpc/transport.hpp"

namespace elicit::jsonrpc {

struct StdioOptions {
  int in_fd = 0;   ///< read messages from here (standard input by default)
  int out_fd = 1;  ///< write messages here (standard output by default)
  /// Longest accepted message line in bytes; a longer line is dropped whole (reported on stderr)
  /// so a peer cannot make the server buffer without bound.
  std::size_t max_message_bytes = 16 * 1024 * 1024;
};

/// Reads on a thread of its own. start() sets SIGPIPE to ignored when it is at its default, so a
/// client that exits mid-write makes send() return false instead of killing the process.
class StdioTransport final : public Transport {
 public:
  explicit StdioTransport(StdioOptions options = {});
  ~StdioTransport() override;
  void start(MessageHandler on_message, CloseHandler on_close) override;
  /// Writes the message and a newline. Messages must not contain raw newlines (serialised JSON
  /// never does). Returns false once the output is closed or broken.
  bool send(std::string message, const SendContext& context) override;
  /// Stops reading (the reader thread ends at once) and stops writing.
  void close() override;

 private:
  StdioOptions options_;
  std::mutex write_mutex_;
  std::atomic<bool> closed_{false};
  int wake_pipe_[2] = {-1, -1};  // written by close() to wake the reader out of poll()
  std::thread reader_;
};

}  // namespace elicit::jsonrpc

// The JSON-RPC vocabulary the MCP layer's API speaks in, named in elicit:: as well (elicit::RequestId
// is elicit::jsonrpc::RequestId). The connection, its options and its threads stay in jsonrpc::.
namespace elicit {
using jsonrpc::StdioOptions;
using jsonrpc::StdioTransport;
}  // namespace elicit
