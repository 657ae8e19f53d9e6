package org.snowkey.lease.simulation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Consumer;

import org.snowkey.keygen.layout.IdLayout;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseStatus;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.lease.LeasedWorkerLease;

/**
 * The lease a simulated generator with extra holdings issues on: the production lease, passed through, except that the
 * siblings it opens for extra holdings (production leases too, on the same simulated store client and scheduler) are
 * kept, and every grant one of them hands out is noted as known to the incarnation at once, before the generator may
 * give the sibling back: the checks must tell a number an extra held from a leaked claim.
 *
 * <p>A sibling whose acquisition failed is closed at once (as the growth check does), and its close gives a claim in
 * doubt back only if it can read the record: when that read fails too, the claim stays until it expires, as a closed
 * process's would. The numbers such an acquisition wrote are noted as known too: the leak check is for the claims of
 * live leases, which retry and adopt them.
 */
final class SimLease implements WorkerLease {

    private final LeasedWorkerLease lease;

    private final Set<Integer> known;

    private final SimStore store;

    private final SimStore.Writer writer;

    private final Consumer<String> trace;

    private final List<LeasedWorkerLease> siblings = new ArrayList<>();

    SimLease(final LeasedWorkerLease lease, final Set<Integer> known, final SimStore store, final SimStore.Writer writer, final Consumer<String> trace) {
        this.lease = lease;
        this.known = known;
        this.store = store;
        this.writer = writer;
        this.trace = trace;
    }

    /** The siblings opened so far, open or closed. */
    List<LeasedWorkerLease> siblings() {
        return siblings;
    }

    @Override
    public LeaseGrant currentGrant() {
        return lease.currentGrant();
    }

    @Override
    public String describe() {
        return lease.describe();
    }

    @Override
    public LeaseStatus status() {
        return lease.status();
    }

    @Override
    public void requireLayout(final IdLayout layout) {
        lease.requireLayout(layout);
    }

    @Override
    public Optional<WorkerLease> openSibling() {
        Optional<WorkerLease> opened = lease.openSibling();
        if (opened.isEmpty()) {
            return opened;
        }
        LeasedWorkerLease sibling = (LeasedWorkerLease) opened.get();
        siblings.add(sibling);
        return Optional.of(new Sibling(sibling));
    }

    @Override
    public boolean opensSiblings() {
        return lease.opensSiblings();
    }

    @Override
    public OptionalInt freeWorkerIds() {
        return lease.freeWorkerIds();
    }

    @Override
    public void close() {
        lease.close();
    }

    /** A sibling whose grants are noted as known as soon as it hands them out. */
    private final class Sibling implements WorkerLease {

        private final LeasedWorkerLease sibling;

        Sibling(final LeasedWorkerLease sibling) {
            this.sibling = sibling;
        }

        @Override
        public LeaseGrant currentGrant() {
            Map<Integer, SimStore.Entry> before = new HashMap<>(store.entries());
            try {
                LeaseGrant grant = sibling.currentGrant();
                known.add(grant.workerId());
                trace.accept(writer.instance().name() + " extra holding on " + grant);
                return grant;
            } catch (final RuntimeException ex) {
                store.entries().forEach((workerId, entry) -> {
                    if (entry != before.get(workerId) && writer.equals(entry.writer())) {
                        known.add(workerId);
                    }
                });
                trace.accept(writer.instance().name() + " could not lease an extra holding: " + ex.getMessage());
                throw ex;
            }
        }

        @Override
        public String describe() {
            return sibling.describe();
        }

        @Override
        public void requireLayout(final IdLayout layout) {
            sibling.requireLayout(layout);
        }

        @Override
        public void close() {
            trace.accept(writer.instance().name() + " closes the lease of an extra holding: " + sibling);
            sibling.close();
        }
    }
}
