package org.snowkey.store.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.mode.ClusterRegistry;

/** The etcd props: every bad value fails at start-up naming the prop and the value, never a password. */
class EtcdStorePropsTest {

    private static final String SECRET = "S3cret-etcd-pw";

    @TempDir
    Path dir;

    private static PropertyReader props(final String... keyValues) {
        Properties props = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            props.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return new PropertyReader(props);
    }

    private static EtcdStoreSettings settings(final PropertyReader reader, final Map<String, String> env) {
        return EtcdStoreProps.resolve(EtcdStoreProps.parse(reader, env), Optional.empty(), 3_000);
    }

    private static InvalidSettingException invalid(final PropertyReader reader) {
        return assertThrows(InvalidSettingException.class, () -> settings(reader, Map.of()));
    }

    @Test
    void endpointsAreNormalizedInTheirOrderAndTheTimeoutIsBoundedByTheCaller() {
        EtcdStoreSettings settings = settings(props(EtcdStoreProps.ENDPOINTS, " 127.0.0.2:2379, http://Host-1:2380 ,127.0.0.2:2379"), Map.of());
        assertEquals(List.of(URI.create("http://127.0.0.2:2379"), URI.create("http://Host-1:2380")), settings.endpoints());
        assertEquals("snowkey", settings.namespace());
        assertEquals(3_000, settings.requestTimeoutMillis());
        assertEquals(700, settings(props(EtcdStoreProps.ENDPOINTS, "h:1", EtcdStoreProps.REQUEST_TIMEOUT, "700"), Map.of()).requestTimeoutMillis());
    }

    @Test
    void badEndpointsAreNamedWithTheirValue() {
        for (String bad : List.of("h", "h:0", "h:65536", "ftp://h:1", "http://h:1/v3", "http://u:p@h:1", "http://h:1,https://h:2", "h:x", "")) {
            InvalidSettingException ex = invalid(props(EtcdStoreProps.ENDPOINTS, bad));
            assertTrue(ex.getMessage().contains(EtcdStoreProps.ENDPOINTS), ex.getMessage());
        }
        InvalidSettingException missing = invalid(props());
        assertTrue(missing.getMessage().contains(EtcdStoreProps.ENDPOINTS) && missing.getMessage().contains("Cluster mode"), missing.getMessage());
    }

    @Test
    void clusterModeOnEtcdSuppliesEndpointsAndNamespaceAndPropsWin() {
        ClusterRegistry mode = new ClusterRegistry("etcd", "governance_ds", "http://10.0.0.1:2379,http://10.0.0.2:2379", new Properties());
        EtcdStoreSettings fromMode = EtcdStoreProps.resolve(EtcdStoreProps.parse(props(), Map.of()), Optional.of(mode), 3_000);
        assertEquals(List.of(URI.create("http://10.0.0.1:2379"), URI.create("http://10.0.0.2:2379")), fromMode.endpoints());
        assertEquals("governance_ds", fromMode.namespace());
        EtcdStoreSettings own = EtcdStoreProps.resolve(EtcdStoreProps.parse(props(EtcdStoreProps.ENDPOINTS, "h:1", EtcdStoreProps.NAMESPACE, "mine"), Map.of()),
                Optional.of(mode), 3_000);
        assertEquals(List.of(URI.create("http://h:1")), own.endpoints());
        assertEquals("mine", own.namespace());
        ClusterRegistry zookeeper = new ClusterRegistry("ZooKeeper", "governance_ds", "10.0.0.1:2181", new Properties());
        assertThrows(InvalidSettingException.class, () -> EtcdStoreProps.resolve(EtcdStoreProps.parse(props(), Map.of()), Optional.of(zookeeper), 3_000));
    }

    @Test
    void thePasswordComesFromExactlyOneSourceAndIsNeverShown() throws IOException {
        assertEquals(SECRET, settings(props(EtcdStoreProps.ENDPOINTS, "h:1", EtcdStoreProps.USER, "snowkey", EtcdStoreProps.PASSWORD, SECRET), Map.of()).password());
        assertEquals(SECRET, settings(props(EtcdStoreProps.ENDPOINTS, "h:1", EtcdStoreProps.USER, "snowkey", EtcdStoreProps.PASSWORD_ENV, "ETCD_PW"),
                Map.of("ETCD_PW", SECRET)).password());
        Path file = Files.writeString(dir.resolve("pw"), SECRET + "\n");
        EtcdStoreSettings fromFile = settings(props(EtcdStoreProps.ENDPOINTS, "h:1", EtcdStoreProps.USER, "snowkey", EtcdStoreProps.PASSWORD_FILE, file.toString()), Map.of());
        assertEquals(SECRET, fromFile.password());
        assertFalse(fromFile.toString().contains(SECRET), fromFile.toString());
        assertFalse(EtcdStoreProps.parse(props(EtcdStoreProps.ENDPOINTS, "h:1", EtcdStoreProps.USER, "u", EtcdStoreProps.PASSWORD, SECRET), Map.of()).toString()
                .contains(SECRET));
        List<InvalidSettingException> failures = List.of(
                invalid(props(EtcdStoreProps.ENDPOINTS, "h:1", EtcdStoreProps.USER, "u", EtcdStoreProps.PASSWORD, SECRET, EtcdStoreProps.PASSWORD_ENV, "X")),
                invalid(props(EtcdStoreProps.ENDPOINTS, "h:1", EtcdStoreProps.PASSWORD, SECRET)),
                invalid(props(EtcdStoreProps.ENDPOINTS, "h:1", EtcdStoreProps.USER, "u")),
                invalid(props(EtcdStoreProps.ENDPOINTS, "h:1", EtcdStoreProps.USER, "u", EtcdStoreProps.PASSWORD_ENV, "NOT_SET_ANYWHERE")),
                invalid(props(EtcdStoreProps.ENDPOINTS, "h:1", EtcdStoreProps.USER, "u", EtcdStoreProps.PASSWORD_FILE, dir.resolve("missing").toString())));
        for (InvalidSettingException each : failures) {
            assertFalse(each.getMessage().contains(SECRET), each.getMessage());
            assertTrue(each.getMessage().contains("etcd-"), each.getMessage());
        }
        assertTrue(failures.get(3).getMessage().contains(EtcdStoreProps.PASSWORD_ENV), failures.get(3).getMessage());
    }

    @Test
    void tlsFilesMustExistComeInPairsAndNeedHttps() throws IOException {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "not checked before the client is built");
        EtcdStoreSettings tls = settings(props(EtcdStoreProps.ENDPOINTS, "h:2379", EtcdStoreProps.CA_FILE, ca.toString()), Map.of());
        assertEquals(List.of(URI.create("https://h:2379")), tls.endpoints());
        assertTrue(tls.tls());
        assertNull(tls.certFile());
        InvalidSettingException http = invalid(props(EtcdStoreProps.ENDPOINTS, "http://h:2379", EtcdStoreProps.CA_FILE, ca.toString()));
        assertTrue(http.getMessage().contains("https"), http.getMessage());
        InvalidSettingException missing = invalid(props(EtcdStoreProps.ENDPOINTS, "h:1", EtcdStoreProps.CA_FILE, dir.resolve("none.pem").toString()));
        assertTrue(missing.getMessage().contains(EtcdStoreProps.CA_FILE), missing.getMessage());
        InvalidSettingException half = invalid(props(EtcdStoreProps.ENDPOINTS, "h:1", EtcdStoreProps.CERT_FILE, ca.toString()));
        assertTrue(half.getMessage().contains(EtcdStoreProps.KEY_FILE), half.getMessage());
    }

    @Test
    void badNamespaceAndTimeoutAreNamed() {
        assertTrue(invalid(props(EtcdStoreProps.ENDPOINTS, "h:1", EtcdStoreProps.NAMESPACE, "a/b")).getMessage().contains("a/b"));
        assertTrue(invalid(props(EtcdStoreProps.ENDPOINTS, "h:1", EtcdStoreProps.REQUEST_TIMEOUT, "5")).getMessage().contains(EtcdStoreProps.REQUEST_TIMEOUT));
    }
}
