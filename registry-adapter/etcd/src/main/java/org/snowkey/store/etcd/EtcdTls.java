package org.snowkey.store.etcd;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS context of an etcd client from the PEM files etcd's own tools use: the CA certificates to trust
 * ({@code etcd-ca-file}; without it the JDK's trust store) and a client certificate with its PKCS#8 key
 * ({@code etcd-cert-file}, {@code etcd-key-file}). The key never leaves this class; errors name the file, never its content.
 */
final class EtcdTls {

    private static final String BEGIN_KEY = "-----BEGIN PRIVATE KEY-----";

    private static final String END_KEY = "-----END PRIVATE KEY-----";

    private EtcdTls() {
    }

    static SSLContext context(final EtcdStoreSettings settings) {
        try {
            TrustManagerFactory trust = null;
            if (settings.caFile() != null) {
                KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
                trusted.load(null, null);
                int i = 0;
                for (Certificate each : certificates(settings.caFile(), EtcdStoreProps.CA_FILE)) {
                    trusted.setCertificateEntry("ca-" + i++, each);
                }
                trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(trusted);
            }
            KeyManagerFactory keys = null;
            if (settings.certFile() != null) {
                // A throw-away password of the in-memory key store: the key is never written anywhere.
                char[] storePassword = UUID.randomUUID().toString().toCharArray();
                KeyStore own = KeyStore.getInstance(KeyStore.getDefaultType());
                own.load(null, null);
                List<Certificate> chain = certificates(settings.certFile(), EtcdStoreProps.CERT_FILE);
                own.setKeyEntry("client", privateKey(settings.keyFile()), storePassword, chain.toArray(new Certificate[0]));
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(own, storePassword);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(), new SecureRandom());
            return context;
        } catch (final GeneralSecurityException | IOException ex) {
            throw new IllegalStateException("SnowKey cannot set up TLS for etcd " + settings.endpointText() + ": " + ex.getClass().getSimpleName() + " "
                    + ex.getMessage(), ex);
        }
    }

    private static List<Certificate> certificates(final Path file, final String prop) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(file)) {
            Collection<? extends Certificate> read = CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (read.isEmpty()) {
                throw new IllegalStateException(prop + " = " + file + " holds no PEM certificate");
            }
            return new ArrayList<>(read);
        }
    }

    private static PrivateKey privateKey(final Path file) throws IOException {
        String pem = Files.readString(file, StandardCharsets.US_ASCII);
        int begin = pem.indexOf(BEGIN_KEY);
        int end = pem.indexOf(END_KEY);
        if (begin < 0 || end < begin) {
            throw new IllegalStateException(EtcdStoreProps.KEY_FILE + " = " + file + " holds no PKCS#8 key ('" + BEGIN_KEY + "'); convert an RSA or EC key with "
                    + "'openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8'");
        }
        byte[] der = Base64.getMimeDecoder().decode(pem.substring(begin + BEGIN_KEY.length(), end));
        for (String algorithm : List.of("RSA", "EC", "Ed25519", "Ed448")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (final GeneralSecurityException ex) {
                // Not a key of this algorithm: try the next.
            }
        }
        throw new IllegalStateException(EtcdStoreProps.KEY_FILE + " = " + file + " holds no RSA, EC or EdDSA PKCS#8 key SnowKey can read");
    }
}
