package org.snowkey.lease.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.lease.admin.LeaseCli;
import org.snowkey.lease.store.LeaseRecord.State;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.store.jdbc.JdbcTableName;

/** The operations command on an H2 lease table: list, release behind the confirmation flag, corrupt rows, secrets. */
class JdbcLeaseCliTest {

    private static final String SECRET = "Sekr3t-cli-1234";

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private JdbcTableName table;

    private JdbcLeaseStore store;

    @BeforeEach
    void createLeases() {
        table = TestDatabase.uniqueTable("cli");
        store = TestDatabase.H2.store(table);
        long future = System.currentTimeMillis() + 600_000L;
        store.create(new LeaseRecord("orders", 3, "app-1@host", 4, future, future - 1_000, State.HELD));
        store.create(new LeaseRecord("orders", 5, "app-2@host", 1, 1_000L, 900L, State.RELEASED));
        TestDatabase.H2.execute("INSERT INTO " + table.value() + " (" + LeaseRowReader.COLUMNS + ") VALUES ('orders', 6, 'x', 1, 1, 0, 0, 'BROKEN')");
    }

    @AfterEach
    void dropTable() {
        store.close();
        TestDatabase.H2.dropQuietly(table);
    }

    private int run(final Map<String, String> environment, final String... args) {
        String[] withRegistry = new String[args.length + 2];
        withRegistry[0] = "--registry";
        withRegistry[1] = "jdbc";
        System.arraycopy(args, 0, withRegistry, 2, args.length);
        return LeaseCli.run(withRegistry, environment, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String[] base(final String... command) {
        String[] prefix = {"--url", TestDatabase.H2.url(), "--username", "sa", "--table", table.value(), "--pool", "orders"};
        String[] result = new String[prefix.length + command.length];
        System.arraycopy(prefix, 0, result, 0, prefix.length);
        System.arraycopy(command, 0, result, prefix.length, command.length);
        return result;
    }

    @Test
    void listsEveryRowIncludingCorruptOnes() {
        assertEquals(0, run(Map.of(), base("list")), err.toString(StandardCharsets.UTF_8));
        String listing = out.toString(StandardCharsets.UTF_8);
        assertTrue(listing.contains("pool 'orders' in jdbc " + TestDatabase.H2.url() + " table " + table.value()), listing);
        assertTrue(listing.matches("(?s).*\\n3\\s+HELD\\s+app-1@host.*"), listing);
        assertTrue(listing.matches("(?s).*\\n5\\s+RELEASED\\s+app-2@host.*"), listing);
        assertTrue(listing.matches("(?s).*\\n6\\s+CORRUPT\\s+.*state=BROKEN.*"), listing);
        assertTrue(listing.contains("3 record(s), 1 held, 1 corrupt"), listing);
    }

    /** An instance whose generator was hot holds extra numbers as ordinary records with its owner: the listing counts them per owner. */
    @Test
    void listCountsTheNumbersEachOwnerHolds() {
        long future = System.currentTimeMillis() + 600_000L;
        store.create(new LeaseRecord("orders", 9, "app-1@host", 1, future, future - 1_000, State.HELD));
        store.create(new LeaseRecord("orders", 12, "app-1@host", 1, future, future - 1_000, State.HELD));
        store.create(new LeaseRecord("orders", 10, "app-2@host", 1, future, future - 1_000, State.HELD));
        // Expired: free to take over, so no longer counted as held by anyone.
        store.create(new LeaseRecord("orders", 11, "app-1@host", 1, 1_000L, 900L, State.HELD));
        assertEquals(0, run(Map.of(), base("list")), err.toString(StandardCharsets.UTF_8));
        String listing = out.toString(StandardCharsets.UTF_8);
        assertTrue(listing.contains("7 record(s), 4 held, 1 corrupt"), listing);
        assertTrue(listing.contains("owner app-1@host holds 3 worker id(s): 3, 9, 12" + System.lineSeparator()), listing);
        assertTrue(listing.contains("owner app-2@host holds 1 worker id(s): 10" + System.lineSeparator()), listing);
    }

    @Test
    void releaseNeedsTheConfirmationFlagAndKeepsTheReservation() {
        LeaseRecord before = store.read("orders", 3).orElseThrow().record();
        assertEquals(2, run(Map.of(), base("release", "3")));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("without --yes-i-am-sure"));
        assertEquals(State.HELD, store.read("orders", 3).orElseThrow().record().state());

        assertEquals(0, run(Map.of(), base("release", "3", "--yes-i-am-sure")), err.toString(StandardCharsets.UTF_8));
        LeaseRecord after = store.read("orders", 3).orElseThrow().record();
        assertEquals(State.RELEASED, after.state());
        assertEquals(before.reservedUntil(), after.reservedUntil(), "the next holder still starts above the old reservation");
        assertEquals(1, run(Map.of(), base("release", "3", "--yes-i-am-sure")), "already released");
    }

    @Test
    void releaseKeepsTheLayoutSoThatAnInstanceOfAnotherLayoutIsStillRefused() {
        long future = System.currentTimeMillis() + 600_000L;
        store.create(new LeaseRecord("orders", 7, "app-3@host", 4, future, future - 1_000, State.HELD, IdLayout.defaults()));
        assertEquals(0, run(Map.of(), base("release", "7", "--yes-i-am-sure")), err.toString(StandardCharsets.UTF_8));
        LeaseRecord after = store.read("orders", 7).orElseThrow().record();
        assertEquals(State.RELEASED, after.state());
        assertEquals(IdLayout.defaults(), after.layout(), "the pool's layout survives a manual release");
        assertEquals(4, after.fencingToken());
    }

    @Test
    void theLayoutIsClearedOnlyOnRequestAndOnlyFromARecordThatNeverIssued() {
        long now = System.currentTimeMillis();
        // Issued: reserved after its layout's epoch.
        store.create(new LeaseRecord("orders", 7, "app-3@host", 4, now + 600_000L, now + 500_000L, State.HELD, IdLayout.defaults()));
        assertEquals(1, run(Map.of(), base("release", "7", "--yes-i-am-sure", "--clear-layout")));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("refusing to clear the layout"), out.toString(StandardCharsets.UTF_8));
        LeaseRecord kept = store.read("orders", 7).orElseThrow().record();
        assertEquals(State.HELD, kept.state(), "a refused clear changes nothing");
        assertEquals(IdLayout.defaults(), kept.layout());

        // Never issued: its layout's epoch lies after everything it reserved.
        IdLayout future = IdLayout.of(13, 1, now + 86_400_000L);
        store.create(new LeaseRecord("orders", 8, "app-4@host", 2, now + 600_000L, now + 500_000L, State.RELEASED, future));
        assertEquals(0, run(Map.of(), base("release", "8", "--yes-i-am-sure", "--clear-layout")), out.toString(StandardCharsets.UTF_8));
        LeaseRecord cleared = store.read("orders", 8).orElseThrow().record();
        assertNull(cleared.layout());
        assertEquals(now + 500_000L, cleared.reservedUntil(), "the reservation stays");
    }

    @Test
    void aCorruptRowIsNeverReleasedBlindly() {
        assertEquals(1, run(Map.of(), base("release", "6", "--yes-i-am-sure")));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("state=BROKEN"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void thePasswordComesFromTheEnvironmentOnlyAndIsNeverPrinted() {
        assertEquals(2, run(Map.of(), base("--password", SECRET, "list")));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--password is not accepted"));
        // A wrong password from the environment: the command fails, naming the database but not the password.
        assertEquals(1, run(Map.of("MY_PW", SECRET), base("--password-env", "MY_PW", "list")));
        String printed = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("Wrong user name or password"), printed);
        assertFalse(printed.contains(SECRET), printed);
    }

    @Test
    void thePasswordIsReadFromAFileAndNeverFromTwoSources(@TempDir final Path work) throws IOException {
        // H2's user sa has no password: a wrong one read from the file fails the command, which proves it was read.
        Path file = Files.writeString(work.resolve("password"), SECRET + "\n");
        assertEquals(1, run(Map.of(), base("--password-file", file.toString(), "list")));
        String printed = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("Wrong user name or password"), printed);
        assertFalse(printed.contains(SECRET), printed);

        err.reset();
        assertEquals(2, run(Map.of("MY_PW", SECRET), base("--password-file", file.toString(), "--password-env", "MY_PW", "list")));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("give --password-file or --password-env, not both"), err.toString(StandardCharsets.UTF_8));

        err.reset();
        Path empty = Files.writeString(work.resolve("empty"), "\n");
        assertEquals(2, run(Map.of(), base("--password-file", empty.toString(), "list")));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("is empty"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void thePasswordOnTheCommandLineIsRefusedSayingWhyAndWhereToPutIt() {
        assertEquals(2, run(Map.of(), base("--password", SECRET, "list")));
        String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.contains("--password is not accepted: the command line is visible to every user of the host")
                && message.contains(JdbcStoreOperations.PASSWORD_ENV) && message.contains("--password-env") && message.contains("--password-file"), message);
        assertFalse(message.contains(SECRET), message);
    }

    @Test
    void anOptionOfAnotherStoreIsAUsageError() {
        assertEquals(2, run(Map.of(), base("--servers", "zk:2181", "list")));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("option --servers is not one of --registry jdbc"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void usageErrorsExitWithTwo() {
        assertEquals(2, run(Map.of(), base()));
        assertEquals(2, run(Map.of(), base("release", "three", "--yes-i-am-sure")));
        assertEquals(2, run(Map.of(), "--pool", "orders", "list"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("jdbc-url"), err.toString(StandardCharsets.UTF_8));
        assertEquals(2, run(Map.of(), "--url", TestDatabase.H2.url(), "--table", "x; DROP TABLE y", "list"));
    }

    @Test
    void aMissingTableIsReportedNotCreated() {
        JdbcTableName missing = TestDatabase.uniqueTable("cli_missing");
        assertEquals(1, run(Map.of(), "--url", TestDatabase.H2.url(), "--username", "sa", "--table", missing.value(), "list"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("table " + missing.value() + " does not exist"), err.toString(StandardCharsets.UTF_8));
    }
}
