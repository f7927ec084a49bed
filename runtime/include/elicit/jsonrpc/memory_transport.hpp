// Two connected in-process transports, for tests and benchmarks.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "elicit/jsonrpc/transport.hpp"

namespace elicit::jsonrpc {

/// One end of an in-memory connection. Messages sent on one end are delivered to the other end's
/// handler on that end's own delivery thread, in order. Closing either end closes both. A delivery
/// thread that runs out of messages watches for the next one for up to 20 microseconds before it
/// sleeps (an in-process peer usually answers within that, and then nobody has to be woken).
class MemoryTransport final : public Transport {
 public:
  /// Two connected ends.
  static std::pair<std::unique_ptr<MemoryTransport>, std::unique_ptr<MemoryTransport>> pair();

  ~MemoryTransport() override;
  void start(MessageHandler on_message, CloseHandler on_close) override;
  bool send(std::string message, const SendContext& context) override;
  void close() override;

 private:
  struct Shared;
  MemoryTransport(std::shared_ptr<Shared> shared, int side);

  std::shared_ptr<Shared> shared_;
  int side_;
  std::thread thread_;
};

}  // namespace elicit::jsonrpc

// The JSON-RPC vocabulary the MCP layer's API speaks in, named in elicit:: as well (elicit::RequestId
// is elicit::jsonrpc::RequestId). The connection, its options and its threads stay in jsonrpc::.
namespace elicit {
using jsonrpc::MemoryTransport;
}  // namespace elicit
