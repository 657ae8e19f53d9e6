package org.snowkey.lease.testing.faults;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.ClockRules;
import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.lease.LeaseRuntimeOptions;
import org.snowkey.lease.LeasedWorkerLease;
import org.snowkey.lease.PoolExhaustedException;
import org.snowkey.lease.UnusablePoolException;
import org.snowkey.lease.WorkerIdCheckpoint;
import org.snowkey.lease.store.LeaseStore;
import org.snowkey.lease.store.LeaseStoreUnavailableException;
import org.snowkey.lease.testing.ManualScheduler;

/**
 * The leases of one run of a store-fault sweep scenario, whatever the store: each opened on a store of its own, with
 * renewals run by hand, one id generator per lease, and the checks every step ends with: no id issued twice across
 * every lease of the run, no two live grants on one worker id.
 */
public final class SweptLeases implements AutoCloseable {

    /** Long enough that no lease expires unless the scenario says so ({@link #passLeaseDuration}). */
    public static final long LEASE_MILLIS = 60_000L;

    private final Path checkpoints;

    private final Supplier<LeaseStore> stores;

    private final Map<String, ManualScheduler> schedulers = new HashMap<>();

    private final List<LeasedWorkerLease> leases = new ArrayList<>();

    private final Map<LeasedWorkerLease, IdGenerator> generators = new IdentityHashMap<>();

    private final Set<Long> ids = new HashSet<>();

    /** How far this run's clock is ahead of the system's: time a scenario lets pass without waiting for it. */
    private final AtomicLong skipped = new AtomicLong();

    private final WallClock clock = () -> System.currentTimeMillis() + skipped.get();

    /**
     * @param checkpoints a directory of this run alone: an instance id's checkpoint outlives its lease, as on disk
     * @param stores      opens a store of the run (through the fault injector)
     */
    public SweptLeases(final Path checkpoints, final Supplier<LeaseStore> stores) {
        this.checkpoints = checkpoints;
        this.stores = stores;
    }

    /** A lease of {@code instanceId} on a store of its own; a later one of the same id reads the same checkpoint. */
    public LeasedWorkerLease open(final String pool, final String instanceId, final IdLayout layout) {
        ManualScheduler scheduler = new ManualScheduler();
        schedulers.put(instanceId, scheduler);
        LeaseRuntimeOptions options = LeaseRuntimeOptions.defaults().withClock(clock).withRenewalScheduler(scheduler)
                .withCheckpoint(new WorkerIdCheckpoint(checkpoints.resolve(instanceId), pool));
        // No acquisition timeout: a failed attempt fails at once and grant() retries it, without the lease's retry wait.
        LeasedWorkerLease lease = new LeasedWorkerLease(stores.get(), new LeaseTerms(pool, LEASE_MILLIS, 0L, instanceId), layout, options);
        leases.add(lease);
        generators.put(lease, new IdGenerator(layout, lease, clock, new ClockRules(10, 10_000)));
        return lease;
    }

    /** The run's clock, as the leases read it. */
    public long nowMillis() {
        return clock.millis();
    }

    /**
     * Lets a lease duration pass at once: every grant expires, and a number released with its reservation (by an
     * operator, or re-reserved by a repair) can be issued on again. Without it a successor on such a number waits
     * for the reservation, and the generator refuses to wait that far.
     */
    public void passLeaseDuration() {
        skipped.addAndGet(LEASE_MILLIS + 1_000L);
    }

    /** Runs the next renewal (or retry) of the newest lease of {@code instanceId}, if one is queued. */
    public void renew(final String instanceId) {
        schedulers.get(instanceId).runNextIfQueued();
    }

    /**
     * Acquires as an insert would, retrying an unreachable store (see {@link RetriedCall}); a refusal (another layout
     * in the pool) is not retried.
     */
    public static LeaseGrant grant(final LeasedWorkerLease lease) {
        return RetriedCall.until(lease::currentGrant, ex -> ex instanceof LeaseUnavailableException
                && (ex.getCause() instanceof LeaseStoreUnavailableException || ex.getCause() instanceof PoolExhaustedException));
    }

    /**
     * Issues a few ids; an id seen before means two leases issued on one number at one time. Each lease has one
     * generator, as in the runtime (one per lease scope): the generator holds the worker id's one counter, so two
     * generators on one lease would repeat each other's ids by construction and prove nothing about the store.
     */
    public void issue(final LeasedWorkerLease lease) {
        grant(lease);
        IdGenerator generator = generators.get(lease);
        for (int i = 0; i < 20; i++) {
            long id = generator.nextId();
            if (!ids.add(id)) {
                throw new AssertionError("id " + id + " issued twice (last by " + lease + ")");
            }
        }
    }

    /** No two live grants on one worker id. */
    public void checkHolders() {
        Map<Integer, LeasedWorkerLease> holders = new HashMap<>();
        for (LeasedWorkerLease each : leases) {
            Optional<LeaseGrant> grant = each.heldGrant();
            if (grant.isPresent()) {
                LeasedWorkerLease other = holders.put(grant.get().workerId(), each);
                if (other != null) {
                    throw new AssertionError("two live holders of worker id " + grant.get().workerId() + ": " + other + " and " + each);
                }
            }
        }
    }

    /** The leases still open after {@link #claimRefuseRenewAndReplace}. */
    public record Survivors(LeasedWorkerLease successor, LeasedWorkerLease second) {
    }

    /**
     * The steps every store's sweep runs: a claim; an instance of another layout refused (a fault only delays the
     * refusal: the pool's record carries {@code layout}); a second holder; renewals (their failures and lost answers
     * included); a release and a new incarnation of the same instance id (same checkpoint: it reads its last number
     * first). Ids are issued and the holders checked between the steps.
     */
    public Survivors claimRefuseRenewAndReplace(final String pool, final IdLayout layout, final IdLayout otherLayout) {
        LeasedWorkerLease first = open(pool, "a", layout);
        issue(first);

        LeasedWorkerLease stranger = open(pool, "x", otherLayout);
        LeaseUnavailableException refused = assertThrows(LeaseUnavailableException.class, () -> grant(stranger),
                "an instance of another layout was admitted into the pool");
        assertInstanceOf(UnusablePoolException.class, refused.getCause(), refused.getMessage());

        LeasedWorkerLease second = open(pool, "b", layout);
        issue(second);
        checkHolders();

        renew("a");
        renew("b");
        issue(first);
        issue(second);
        checkHolders();

        first.close();
        LeasedWorkerLease successor = open(pool, "a", layout);
        issue(successor);
        issue(second);
        checkHolders();
        return new Survivors(successor, second);
    }

    @Override
    public void close() {
        leases.forEach(LeasedWorkerLease::close);
    }
}
