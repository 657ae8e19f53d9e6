package org.snowkey.lease.store.etcd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.snowkey.lease.admin.LeaseCli;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.testing.StartValuesFixtures;
import org.snowkey.segment.store.etcd.EtcdRangeAllocator;
import org.snowkey.lease.store.LeaseRecord.State;
import org.snowkey.store.etcd.EtcdClient;
import org.snowkey.store.etcd.EtcdTestServer;

/**
 * {@code LeaseCli --registry etcd} on a real etcd server: list, release behind the confirmation flag (keeping the
 * reservation), and the password: refused as an option, read from the environment or a file, never printed.
 */
class EtcdLeaseCliTest {

    private static final String SECRET = "Sekr3t-etcd-cli-4321";

    @RegisterExtension
    static final EtcdTestServer.PerClass ETCD = new EtcdTestServer.PerClass();

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private String namespace;

    @BeforeEach
    void createLeases() {
        namespace = "cli" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (EtcdLeaseStore store = new EtcdLeaseStore(new EtcdClient(ETCD.server().settings(namespace)))) {
            long future = System.currentTimeMillis() + 600_000L;
            store.create(new LeaseRecord("orders", 3, "app-1@host", 4, future, future - 1_000, State.HELD));
            store.create(new LeaseRecord("orders", 5, "app-2@host", 1, 1_000L, 900L, State.RELEASED));
        }
    }

    private int run(final EtcdTestServer target, final Map<String, String> environment, final String... command) {
        List<String> args = new ArrayList<>(List.of("--registry", "etcd", "--endpoints", target.endpoint().toString(), "--namespace", namespace, "--pool", "orders"));
        args.addAll(List.of(command));
        return LeaseCli.run(args.toArray(String[]::new), environment, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String printed() {
        return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    }

    private LeaseRecord read(final int workerId) {
        try (EtcdLeaseStore store = new EtcdLeaseStore(new EtcdClient(ETCD.server().settings(namespace)))) {
            return store.read("orders", workerId).orElseThrow().record();
        }
    }

    @Test
    void listsTheRecordsOfThePoolUnderTheNamespace() {
        assertEquals(0, run(ETCD.server(), Map.of(), "list"), printed());
        String listing = out.toString(StandardCharsets.UTF_8);
        assertTrue(listing.matches("(?s).*\\n3\\s+HELD\\s+app-1@host.*"), listing);
        assertTrue(listing.matches("(?s).*\\n5\\s+RELEASED\\s+app-2@host.*"), listing);
        assertTrue(listing.contains("2 record(s), 1 held"), listing);
    }

    @Test
    void releaseNeedsTheConfirmationFlagAndKeepsTheReservation() {
        LeaseRecord before = read(3);
        assertEquals(2, run(ETCD.server(), Map.of(), "release", "3"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("without --yes-i-am-sure"), printed());
        assertEquals(State.HELD, read(3).state());

        assertEquals(0, run(ETCD.server(), Map.of(), "release", "3", "--yes-i-am-sure"), printed());
        LeaseRecord after = read(3);
        assertEquals(State.RELEASED, after.state());
        assertEquals(before.reservedUntil(), after.reservedUntil(), "the next holder still starts above the old reservation");
        assertEquals(1, run(ETCD.server(), Map.of(), "release", "3", "--yes-i-am-sure"), "already released");
    }

    /** ranges and reconcile read the counters and the range log a real allocator wrote under --namespace. */
    @Test
    void rangesAndReconcileReadTheSegmentLogOfTheNamespace() {
        try (EtcdClient client = new EtcdClient(ETCD.server().settings(namespace))) {
            EtcdRangeAllocator allocator = new EtcdRangeAllocator(client, "app-1@host", StartValuesFixtures.everyKeyAtOne());
            for (int i = 0; i < 5; i++) {
                allocator.allocate("shop_db.t_order", 10);
            }
        }
        List<String> args = List.of("--registry", "etcd", "--endpoints", ETCD.server().endpoint().toString(), "--namespace", namespace);
        PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        List<String> ranges = new ArrayList<>(args);
        ranges.addAll(List.of("ranges", "--key", "shop_db.t_order", "--limit", "2"));
        assertEquals(0, LeaseCli.run(ranges.toArray(String[]::new), Map.of(), outStream, errStream), printed());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("next value 51"), printed());
        assertTrue(out.toString(StandardCharsets.UTF_8).matches("(?s).*\\n41\\s+50\\s+10\\s+app-1@host\\s.*"), printed());
        out.reset();
        List<String> reconcile = new ArrayList<>(args);
        reconcile.add("reconcile");
        assertEquals(0, LeaseCli.run(reconcile.toArray(String[]::new), Map.of(), outStream, errStream), printed());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("key 'shop_db.t_order': 5 ranges from 1 to 50, 0 gaps, 0 overlaps (OK)"), printed());
    }

    @Test
    void aBadEndpointIsAUsageErrorNamingItsProp() {
        assertEquals(2, LeaseCli.run(new String[] {"--registry", "etcd", "--endpoints", "ftp://etcd:2379", "list"}, Map.of(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)), printed());
        assertTrue(printed().contains("etcd-endpoints") && printed().contains("ftp://etcd:2379"), printed());
    }

    @Test
    void thePasswordIsNeverAnOptionComesFromTheEnvironmentOrAFileAndIsNeverPrinted(@TempDir final Path work) throws Exception {
        assertEquals(2, run(ETCD.server(), Map.of(), "--user", "root", "--password", SECRET, "list"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--password is not accepted"), printed());
        assertFalse(printed().contains(SECRET), printed());

        try (EtcdTestServer secured = EtcdTestServer.startNew()) {
            String rootPassword = "R00t-" + UUID.randomUUID();
            try (EtcdLeaseStore store = new EtcdLeaseStore(new EtcdClient(secured.settings(namespace)))) {
                long future = System.currentTimeMillis() + 600_000L;
                store.create(new LeaseRecord("orders", 7, "app-7@host", 2, future, future - 1_000, State.HELD));
            }
            secured.enableAuthentication(rootPassword);
            // A wrong password from the default variable: refused by etcd, and the password appears nowhere.
            out.reset();
            err.reset();
            assertEquals(1, run(secured, Map.of("SNOWKEY_ETCD_PASSWORD", SECRET), "--user", "root", "list"), printed());
            assertFalse(printed().contains(SECRET), printed());
            // No password at all for a user: a usage error saying what is missing.
            out.reset();
            err.reset();
            assertEquals(2, run(secured, Map.of(), "--user", "root", "list"), printed());
            assertTrue(printed().contains("etcd-user"), printed());
            // The right one from a file, and from a variable named by --password-env: the listing works.
            Path file = Files.writeString(work.resolve("etcd-password"), rootPassword + "\n");
            out.reset();
            err.reset();
            assertEquals(0, run(secured, Map.of(), "--user", "root", "--password-file", file.toString(), "list"), printed());
            assertTrue(out.toString(StandardCharsets.UTF_8).matches("(?s).*\\n7\\s+HELD\\s+app-7@host.*"), printed());
            assertFalse(printed().contains(rootPassword), printed());
            out.reset();
            err.reset();
            assertEquals(0, run(secured, Map.of("OPS_PW", rootPassword), "--user", "root", "--password-env", "OPS_PW", "list"), printed());
            assertFalse(printed().contains(rootPassword), printed());
        }
    }
}
