package org.snowkey.store.etcd;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.snowkey.lease.testing.faults.FaultSchedule;
import org.snowkey.lease.testing.faults.StoreFault;
import org.snowkey.store.StoreUnavailableException;
import org.snowkey.store.json.JsonObject;

/**
 * A real etcd client whose requests a {@link FaultSchedule} breaks at the one place they leave
 * ({@link EtcdClient#post}): a call site is the gateway path and the SnowKey method that made the request. An
 * {@link StoreFault#ERROR} or {@link StoreFault#TIMEOUT} fails before the request is sent, as a refused connection
 * or a timeout before etcd applied it does; {@link StoreFault#APPLIED_THEN_ERROR} sends it, etcd applies it, and the
 * answer is lost.
 */
public final class FaultInjectingEtcdClient extends EtcdClient {

    private final FaultSchedule schedule;

    public FaultInjectingEtcdClient(final EtcdStoreSettings settings, final FaultSchedule schedule) {
        super(settings);
        this.schedule = schedule;
    }

    /** A client whose next writing transaction is applied by etcd and then answered with a lost connection. */
    public static EtcdClient losingNextTxnAnswer(final EtcdStoreSettings settings) {
        AtomicBoolean loseNext = new AtomicBoolean(true);
        return new EtcdClient(settings) {
            @Override
            protected JsonObject post(final String path, final String body, final boolean repeatable) {
                JsonObject answer = super.post(path, body, repeatable);
                if (path.endsWith("/txn") && !repeatable && loseNext.getAndSet(false)) {
                    throw new StoreUnavailableException(describe() + " did not answer " + path + " (injected: the answer was lost after etcd applied it)", null);
                }
                return answer;
            }
        };
    }

    @Override
    protected JsonObject post(final String path, final String body, final boolean repeatable) {
        StoreFault fault = schedule.count(path + " by " + caller());
        if (fault == StoreFault.ERROR) {
            throw new StoreUnavailableException(describe() + " is unreachable (injected: connection refused during " + path + ")", null);
        }
        if (fault == StoreFault.TIMEOUT) {
            throw new StoreUnavailableException(describe() + " did not answer " + path + " (injected: request timeout before etcd applied it)", null);
        }
        JsonObject answer = super.post(path, body, repeatable);
        if (fault == StoreFault.APPLIED_THEN_ERROR) {
            throw new StoreUnavailableException(describe() + " did not answer " + path + " (injected: the answer was lost after etcd applied it)", null);
        }
        return answer;
    }

    /**
     * The store operation that made the request and the SnowKey code that called the store (the lease protocol's
     * claim, renewal or release; the allocator's read or transaction), so that each protocol step is a site of its own.
     */
    private static String caller() {
        List<StackTraceElement> frames = Arrays.stream(new Throwable().getStackTrace()).filter(each -> each.getClassName().startsWith("org.snowkey.")
                && !each.getClassName().startsWith("org.snowkey.store.etcd.") && !each.getClassName().startsWith("org.snowkey.lease.testing.")
                && !each.getClassName().contains("Test")).toList();
        if (frames.isEmpty()) {
            return "?";
        }
        String store = frames.get(0).getClassName();
        String from = frames.stream().filter(each -> !each.getClassName().equals(store)).findFirst().map(FaultInjectingEtcdClient::name).orElse("?");
        return name(frames.get(0)) + " from " + from;
    }

    private static String name(final StackTraceElement frame) {
        return frame.getClassName().substring(frame.getClassName().lastIndexOf('.') + 1) + "." + frame.getMethodName() + ":" + frame.getLineNumber();
    }
}
