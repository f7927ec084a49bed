// Certificates for the TLS tests, made with the openssl command in a scratch folder: a CA, a second
// CA nobody should trust, and leaf certificates for 127.0.0.1 and localhost signed by the first.
#pragma once

#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "run_command.hpp"
#include "scratch_dir.hpp"
#include "test_paths.hpp"

namespace test_support {

class Pki {
 public:
  /// Makes ca.crt, other-ca.crt and the leaves server.crt (CN "first") and server2.crt (CN
  /// "second") in TEST_TMP_DIR/<prefix>-<pid>.
  explicit Pki(const std::string& prefix) : dir_(prefix), root_(dir_.root().string()) {
    openssl("req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj /CN=elicitgen-test-ca");
    openssl("req -x509 -newkey rsa:2048 -nodes -keyout other-ca.key -out other-ca.crt -days 2 -subj /CN=other-ca");
    leaf("server", "first");
    leaf("server2", "second");
  }

  const ScratchDir& dir() const { return dir_; }
  std::string ca() const { return root_ + "/ca.crt"; }
  std::string other_ca() const { return root_ + "/other-ca.crt"; }
  std::string crt(const std::string& name) const { return root_ + "/" + name + ".crt"; }
  std::string key(const std::string& name) const { return root_ + "/" + name + ".key"; }

  /// `openssl ...` in the folder; the test fails with its output when it fails.
  void openssl(const std::string& args) const {
    const auto r = run_command("cd '" + root_ + "' && openssl " + args + " 2>&1");
    INFO(args << "\n" << r.out);
    REQUIRE(r.exit_code == 0);
  }

  /// NAME.crt / NAME.key: a certificate with common name `cn` for the subject alternative names
  /// `names` (OpenSSL's syntax), signed by ca.crt.
  void leaf(const std::string& name, const std::string& cn,
            const std::string& names = "IP:127.0.0.1,DNS:localhost") const {
    std::ofstream(root_ + "/" + name + ".ext") << "subjectAltName=" << names << "\n";
    openssl("req -newkey rsa:2048 -nodes -keyout " + name + ".key -out " + name + ".csr -subj /CN=" + cn);
    openssl("x509 -req -in " + name + ".csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile " + name +
            ".ext -out " + name + ".crt");
  }

 private:
  ScratchDir dir_;
  std::string root_;
};

}  // namespace test_support
