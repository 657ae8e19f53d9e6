package org.snowkey.store.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.store.StoreUnavailableException;

/**
 * TLS from PEM files against a real etcd serving https with client certificates required. The certificates are made
 * for the test with openssl (skipped without it): a CA, a server certificate for 127.0.0.1, a client certificate.
 */
class EtcdTlsTest {

    @TempDir
    Path dir;

    private void openssl(final String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException(command + " failed: " + output);
        }
    }

    private Path certificate(final String name, final String extension) throws IOException, InterruptedException {
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", name + ".key", "-out", name + ".csr", "-subj", "/CN=" + name);
        Files.writeString(dir.resolve(name + ".ext"), extension + "\n");
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", name + ".pem", "-days", "2",
                "-extfile", name + ".ext");
        return dir.resolve(name + ".pem");
    }

    @Test
    @Timeout(120)
    void aClientWithTheCaAndItsCertificateTalksTlsAndOneWithoutIsRefused() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")) || "true".equalsIgnoreCase(System.getenv("CI")), "no openssl to make test certificates");
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=snowkey-test-ca");
        // clientAuth too: etcd's JSON gateway dials etcd's own gRPC port with the server certificate as its client certificate.
        Path serverCert = certificate("server", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth");
        Path clientCert = certificate("client", "extendedKeyUsage=clientAuth");
        Path ca = dir.resolve("ca.pem");
        try (EtcdTestServer server = EtcdTestServer.startWithTls(serverCert, dir.resolve("server.key"), ca, clientCert, dir.resolve("client.key"))) {
            EtcdStoreSettings mutual = new EtcdStoreSettings(List.of(server.endpoint()), "tls", null, null, ca, clientCert, dir.resolve("client.key"), 2_000);
            try (EtcdClient client = new EtcdClient(mutual)) {
                assertTrue(client.txn(new EtcdTxn().ifAbsent("/t").put("/t", "v".getBytes(StandardCharsets.UTF_8))).succeeded());
                assertEquals("v", client.get("/t").orElseThrow().valueText());
            }
            EtcdStoreSettings noClientCertificate = new EtcdStoreSettings(List.of(server.endpoint()), "tls", null, null, ca, null, null, 2_000);
            try (EtcdClient anonymous = new EtcdClient(noClientCertificate)) {
                assertThrows(StoreUnavailableException.class, () -> anonymous.get("/t"));
            }
            EtcdStoreSettings untrusted = new EtcdStoreSettings(List.of(server.endpoint()), "tls", null, null, null, clientCert, dir.resolve("client.key"), 2_000);
            try (EtcdClient doubting = new EtcdClient(untrusted)) {
                assertThrows(StoreUnavailableException.class, () -> doubting.get("/t"));
            }
        }
        // An RSA key in the traditional (PKCS#1) form is named with the conversion to make.
        openssl("genrsa", "-traditional", "-out", "old.key", "2048");
        EtcdStoreSettings oldKey = new EtcdStoreSettings(List.of(java.net.URI.create("https://127.0.0.1:1")), "tls", null, null, ca, clientCert, dir.resolve("old.key"),
                2_000);
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> new EtcdClient(oldKey));
        assertTrue(refused.getMessage().contains(EtcdStoreProps.KEY_FILE) && refused.getMessage().contains("pkcs8"), refused.getMessage());
    }
}
