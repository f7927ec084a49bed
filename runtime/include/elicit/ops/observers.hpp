// Several ServerObservers as one (ServerSessionOptions::observer takes one): e.g. the metrics and
// the request log of the operations wing.
#pragma once

#include <memory>
#include <vector>

#include "elicit/observer.hpp"

namespace elicit::ops {

/// One observer that tells each of `observers` in turn, in order (null ones skipped); what one
/// throws is swallowed so the others still hear. Thread-safe when each of them is.
std::shared_ptr<ServerObserver> observers(std::vector<std::shared_ptr<ServerObserver>> observers);

}  // namespace elicit::ops
