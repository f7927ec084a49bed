// A complete MCP server over stdio whose tools ask the user for typed input (see sample_tools.cpp).
// Run it from an MCP client (e.g. the TypeScript SDK's StdioClientTransport); logs go to stderr.
// Usage: elicitgen_stdio_server [--page-size N] [--state-keys FILE] [--state-ttl-ms N]
//   --page-size N      N entries per page of tools/list (and the other lists), so clients' paging
//                      (nextCursor) can be tried; absent or 0: one page
//   --state-keys FILE  requestState keys, base64, one per line, the first sealing: a 2026-07-28 call
//                      parked by `elicitgen client --park` resumes through the next process started
//                      with the same keys; absent: a random key of this process
//   --state-ttl-ms N   how long a requestState opens (default 600000: 10 minutes)
#include <cstdlib>
#include <cstring>
#include <iostream>

#include <elicit/jsonrpc/stdio_transport.hpp>
#include <elicit/server_session.hpp>
#ifdef ELICITGEN_SAMPLE_BROWSER_FORMS
#include <elicit/forms/page_server.hpp>
#endif

#include "sample_tools.hpp"
#include "state_options.hpp"

int main(int argc, char** argv) {
  std::size_t page_size = 0;
  elicit::ServerSessionOptions options;
  std::string error;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--page-size") == 0 && i + 1 < argc) {
      page_size = std::strtoul(argv[++i], nullptr, 10);
    } else if (read_state_option(argc, argv, i, options.request_state, error)) {
      if (!error.empty()) {
        std::cerr << error << "\n";
        return 2;
      }
    } else {
      std::cerr << "usage: " << argv[0] << " [--page-size N] [--state-keys FILE] [--state-ttl-ms N]\n";
      return 2;
    }
  }
  try {
    elicit::StdioTransport transport;
    // The opt-in userInteraction dialect (user_interaction.hpp): a client declaring only
    // `userInteraction` gets the same tools' questions as interaction/create.
    options.user_interaction.enabled = true;
    elicit::ServerSession server(
        transport, {"elicitgen-sample-server", "0.1.0", "elicitgen sample server", std::nullopt}, options);
    add_sample_tools(*server.server());
#ifdef ELICITGEN_SAMPLE_BROWSER_FORMS
    // The api_key tool's page: a loopback page server, started when the first page is opened
    // (development mode: pages without a principal, for this machine's browser only).
    server.server()->set_browser_forms(elicit::forms::loopback_pages());
#endif
    server.server()->set_page_size(page_size);
    std::cerr << "elicitgen-sample-server: serving on stdio\n";
    server.run();
  } catch (const std::exception& e) {  // e.g. no thread could be created for the workers or the reader
    std::cerr << "elicitgen-sample-server: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
