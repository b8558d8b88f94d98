import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

// A certificate authority made for one test file, and a server certificate it signs for 127.0.0.1 and localhost:
// what a process trusts through NODE_EXTRA_CA_CERTS, as a deployment trusts a private CA. Made with openssl(1).

export interface TestCa {
  dir: string;
  // The CA's certificate, for NODE_EXTRA_CA_CERTS.
  caFile: string;
  key: string;
  cert: string;
}

export async function makeTestCa(): Promise<TestCa> {
  const dir = await mkdtemp(path.join(tmpdir(), "test-ca-"));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  openssl("req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=svc test CA");
  openssl("req", ...ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost");
  await writeFile(file("server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
  openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "1", "-extfile", "server.ext", "-out", "server.pem");
  return { dir, caFile: file("ca.pem"), key: await readFile(file("server.key"), "utf8"), cert: await readFile(file("server.pem"), "utf8") };
}
