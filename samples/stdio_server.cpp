// A complete MCP server over stdio whose tools ask the user for typed input (see sample_tools.cpp).
// Run it from an MCP client (e.g. the TypeScript SDK's StdioClientTransport); logs go to stderr.
#include <iostream>

#include <elicit/jsonrpc/stdio_transport.hpp>
#include <elicit/server.hpp>

#include "sample_tools.hpp"

int main() {
  try {
    elicit::StdioTransport transport;
    elicit::ServerSessionOptions options;
    // The opt-in userInteraction dialect (user_interaction.hpp): a client declaring only
    // `userInteraction` gets the same tools' questions as interaction/create.
    options.user_interaction.enabled = true;
    elicit::ServerSession server(
        transport, {"elicitgen-sample-server", "0.1.0", "elicitgen sample server", std::nullopt}, options);
    add_sample_tools(server);
    std::cerr << "elicitgen-sample-server: serving on stdio\n";
    server.run();
  } catch (const std::exception& e) {  // e.g. no thread could be created for the workers or the reader
    std::cerr << "elicitgen-sample-server: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
