package org.snowkey.lease.admin;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.lease.store.CorruptLeaseRecordException;
import org.snowkey.lease.store.LeaseRecord;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.store.StoredLease;

/**
 * Operator commands over any {@link LeaseStore}: list a pool, release a number by hand.
 *
 * <p>A manual release never endangers uniqueness: it keeps {@code reservedUntil}, so the next holder still starts
 * above everything the old holder may have issued, and a still-running old holder loses its next renewal and
 * stops issuing on the number; it keeps the layout, so an instance of another layout is still refused. It only
 * frees the number before its expiry.
 */
public final class LeaseAdmin {

    /** The flag that also clears a record's layout on release, allowed only on a record that never issued. */
    public static final String CLEAR_LAYOUT = "--clear-layout";

    /** The flag without which a manual release is refused. */
    public static final String CONFIRM = "--yes-i-am-sure";

    private final LeaseStore store;

    private final PrintStream out;

    public LeaseAdmin(final LeaseStore store, final PrintStream out) {
        this.store = store;
        this.out = out;
    }

    /**
     * Prints worker id, state, owner, expiry, reservation and fencing token of every record of the pool, the totals,
     * and how many numbers each owner holds.
     */
    public void list(final String pool, final long nowMillis) {
        LeaseStore.PoolListing listing = store.list(pool);
        out.printf("pool '%s' in %s%n", pool, store.describe());
        out.printf("%-8s %-9s %-40s %-26s %-26s %s%n", "WORKER", "STATE", "OWNER", "EXPIRES", "RESERVED-UNTIL", "FENCING");
        for (Integer each : listing.usedWorkerIds()) {
            StoredLease stored = listing.leases().get(each);
            if (stored == null) {
                CorruptLeaseRecordException corrupt = listing.corrupt().get(each);
                out.printf("%-8d %-9s %s%n", each, "CORRUPT", corrupt.getMessage());
                continue;
            }
            LeaseRecord record = stored.record();
            out.printf("%-8d %-9s %-40s %-26s %-26s %d%n", each, stateOf(record, nowMillis), record.owner(), Instant.ofEpochMilli(record.expiresAt()),
                    Instant.ofEpochMilli(record.reservedUntil()), record.fencingToken());
        }
        long held = listing.leases().values().stream().filter(each -> !each.record().isClaimable(nowMillis)).count();
        out.printf("%d record(s), %d held, %d corrupt%n", listing.usedWorkerIds().size(), held, listing.corrupt().size());
        printHeldByOwner(listing, nowMillis);
    }

    /**
     * One line per owner of HELD numbers: how many it holds, and which. An instance whose generator was hot holds extra
     * numbers of the pool besides its own, as ordinary records with its owner (docs/design.md, "Holdings: more worker
     * ids for a hot generator"); this is where an operator sees who takes how much of the pool.
     */
    private void printHeldByOwner(final LeaseStore.PoolListing listing, final long nowMillis) {
        Map<String, List<Integer>> byOwner = new TreeMap<>();
        for (Integer each : listing.usedWorkerIds()) {
            StoredLease stored = listing.leases().get(each);
            if (stored != null && "HELD".equals(stateOf(stored.record(), nowMillis))) {
                byOwner.computeIfAbsent(stored.record().owner(), owner -> new ArrayList<>()).add(each);
            }
        }
        byOwner.forEach((owner, workerIds) -> out.printf("owner %s holds %d worker id(s): %s%n", owner, workerIds.size(),
                String.join(", ", workerIds.stream().map(String::valueOf).toList())));
    }

    /** HELD, EXPIRED (held but free to take over) or RELEASED. */
    public static String stateOf(final LeaseRecord record, final long nowMillis) {
        if (record.state() == LeaseRecord.State.RELEASED) {
            return "RELEASED";
        }
        return record.isClaimable(nowMillis) ? "EXPIRED" : "HELD";
    }

    /**
     * Marks a number RELEASED, keeping its reservation and its layout.
     *
     * @return true when released; false when there was nothing to release or the record changed meanwhile
     * @throws CorruptLeaseRecordException when the record cannot be parsed: it is never released blindly
     */
    public boolean release(final String pool, final int workerId) {
        return release(pool, workerId, false);
    }

    /**
     * Marks a number RELEASED, keeping its reservation and, unless {@code clearLayout}, its layout. The layout is what
     * refuses an instance of another layout (whose ids would repeat this pool's), so it is cleared only from a record
     * that never issued: one whose reservation lies before its layout's epoch, where no id can have been made.
     *
     * @return true when released (or its layout cleared); false when there was nothing to do, the record changed
     *         meanwhile, or the layout may not be cleared
     * @throws CorruptLeaseRecordException when the record cannot be parsed: it is never released blindly
     */
    public boolean release(final String pool, final int workerId, final boolean clearLayout) {
        Optional<StoredLease> stored = store.read(pool, workerId);
        if (stored.isEmpty()) {
            out.printf("worker id %d of pool '%s' has no record: nothing to release%n", workerId, pool);
            return false;
        }
        LeaseRecord record = stored.get().record();
        if (clearLayout && !mayClearLayout(record)) {
            return false;
        }
        if (record.state() == LeaseRecord.State.RELEASED && !clearLayout) {
            out.printf("worker id %d of pool '%s' is already released%n", workerId, pool);
            return false;
        }
        LeaseRecord released = record.withState(LeaseRecord.State.RELEASED);
        if (clearLayout) {
            released = released.withoutLayout();
        }
        if (store.compareAndSet(released, stored.get().storeVersion()).isEmpty()) {
            out.printf("worker id %d of pool '%s' changed while releasing it (renewed or taken over); list the pool and try again%n", workerId, pool);
            return false;
        }
        if (clearLayout) {
            out.printf("cleared the layout %s of worker id %d of pool '%s': its reservation %s lies before the layout's epoch %s, so no id was issued "
                    + "under it%n", record.layoutText(), workerId, pool, Instant.ofEpochMilli(record.reservedUntil()), Instant.ofEpochMilli(record.layout().epochMillis()));
        }
        if (record.state() != LeaseRecord.State.RELEASED) {
            out.printf("released worker id %d of pool '%s' (held by %s, expiring %s). The next holder starts after %s; if %s still runs, it stops "
                    + "issuing on this number at its next renewal.%n", workerId, pool, record.owner(), Instant.ofEpochMilli(record.expiresAt()),
                    Instant.ofEpochMilli(record.reservedUntil()), record.owner());
        }
        return true;
    }

    /** Whether {@code --clear-layout} may apply to a record; says why not when it may not. */
    private boolean mayClearLayout(final LeaseRecord record) {
        if (record.layout() == null) {
            out.printf("worker id %d of pool '%s' carries no layout: nothing to clear%n", record.workerId(), record.pool());
            return false;
        }
        if (record.reservedUntil() >= record.layout().epochMillis()) {
            out.printf("refusing to clear the layout %s of worker id %d of pool '%s': it is reserved until %s, not before the layout's epoch %s, so ids may "
                    + "have been issued under it, and an instance of another layout admitted to this pool would issue the same ids. The layout stays; "
                    + "an instance with another layout needs another %s%n", record.layoutText(), record.workerId(), record.pool(),
                    Instant.ofEpochMilli(record.reservedUntil()), Instant.ofEpochMilli(record.layout().epochMillis()), PropertyNames.LEASE_POOL);
            return false;
        }
        return true;
    }

    /**
     * Runs the command words of an operations tool: {@code list}, or {@code release <workerId>} which needs
     * {@link #CONFIRM}. Registry errors print their message.
     *
     * @return the exit code: 0 done, 1 failed, 2 usage
     */
    public int execute(final Arguments parsed, final String pool, final String usage, final PrintStream err) {
        try {
            if ("list".equals(parsed.words().get(0))) {
                list(pool, System.currentTimeMillis());
                return 0;
            }
            return release(parsed, pool, usage, err);
        } catch (final IllegalStateException ex) {
            // Registry unreachable, corrupt record, no permission: the message says which.
            err.println(ex.getMessage());
            return 1;
        }
    }

    private int release(final Arguments parsed, final String pool, final String usage, final PrintStream err) {
        if (parsed.words().size() != 2) {
            err.println(usage);
            return 2;
        }
        int workerId;
        try {
            workerId = Integer.parseInt(parsed.words().get(1));
        } catch (final NumberFormatException ex) {
            err.println("worker id '" + parsed.words().get(1) + "' is not a number");
            return 2;
        }
        if (!parsed.flags().contains(CONFIRM)) {
            err.println("refusing to release worker id " + workerId + " of pool '" + pool + "' without " + CONFIRM + ". Releasing frees the number before "
                    + "its expiry; its reservation is kept, so ids stay unique, and a holder that still runs stops issuing on it.");
            return 2;
        }
        return release(pool, workerId, parsed.flags().contains(CLEAR_LAYOUT)) ? 0 : 1;
    }

    /** A command line: {@code --name value} options, flags (options without a value) and bare words. The one parser of the operations tool. */
    public record Arguments(Map<String, String> options, List<String> words, Set<String> flags) {

        /** Parses {@code --name value} pairs, the given flags and bare words. */
        public static Arguments parse(final String[] args, final Set<String> flagNames) {
            Map<String, String> options = new LinkedHashMap<>();
            List<String> words = new ArrayList<>();
            Set<String> flags = new HashSet<>();
            for (int i = 0; i < args.length; i++) {
                String each = args[i];
                if (flagNames.contains(each)) {
                    flags.add(each);
                } else if (each.startsWith("--")) {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException("option " + each + " needs a value");
                    }
                    options.put(each, args[++i]);
                } else {
                    words.add(each);
                }
            }
            return new Arguments(options, words, flags);
        }
    }
}
