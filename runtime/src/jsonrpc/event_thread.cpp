#include "elicit/jsonrpc/event_thread.hpp"

#include <stdexcept>
#include <string>

namespace elicit::jsonrpc {

namespace {
thread_local int event_depth = 0;
}  // namespace

EventThreadScope::EventThreadScope() noexcept { ++event_depth; }
EventThreadScope::~EventThreadScope() { --event_depth; }

bool on_event_thread() noexcept { return event_depth > 0; }

void detail::require_blocking_allowed(std::string_view operation, std::string_view alternative) {
  if (!on_event_thread()) return;
  throw std::logic_error(std::string(operation) +
                         " would block an event thread (a transport, session dispatch or timer thread, which must "
                         "stay free to deliver the answer); use " +
                         std::string(alternative) + " instead");
}

}  // namespace elicit::jsonrpc
