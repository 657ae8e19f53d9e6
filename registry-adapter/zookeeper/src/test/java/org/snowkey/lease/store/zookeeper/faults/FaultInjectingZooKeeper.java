package org.snowkey.lease.store.zookeeper.faults;

import java.io.IOException;
import java.util.List;
import java.util.function.IntConsumer;

import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.snowkey.lease.testing.faults.FaultSchedule;
import org.snowkey.lease.testing.faults.StoreFault;

/**
 * A real ZooKeeper handle whose operations consult a {@link FaultSchedule} first: every create, setData, getData,
 * delete, exists, getChildren, multi, getACL, setACL and sync that SnowKey asks Curator for (sync and async forms) is
 * a call site named by the operation and SnowKey's frame ({@link SnowKeyCallSite}), and the armed one fails once:
 * <ul>
 * <li>{@link StoreFault#ERROR}: {@code CONNECTIONLOSS} before the server sees it;</li>
 * <li>{@link StoreFault#TIMEOUT}: held for the client's request timeout, then {@code REQUESTTIMEOUT} thrown, as
 *     ZooKeeper's own client does when a request outlives that timeout; the server never saw it. The connection is
 *     left open: closing it from the caller's thread ({@code Testable.closeSocket}, as the client's own timeout
 *     handling closes it) once left the 3.9.5 client unable to reconnect until its session expired, about 20 s,
 *     longer than a sweep run may wait;</li>
 * <li>{@link StoreFault#APPLIED_THEN_ERROR}: sent to the server and applied (or refused by it), then the answer is
 *     lost: {@code CONNECTIONLOSS} thrown or delivered to the callback.</li>
 * </ul>
 * Calls with no SnowKey frame (Curator's own) pass through uncounted, as do the calls one ZooKeeper method makes of
 * another on the same thread.
 */
public final class FaultInjectingZooKeeper extends ZooKeeper {

    /** A call of this handle being injected on this thread: calls it makes of other overridden methods are part of it. */
    private static final ThreadLocal<Boolean> INSIDE = ThreadLocal.withInitial(() -> false);

    private static final int LOST = KeeperException.Code.CONNECTIONLOSS.intValue();

    private final FaultSchedule schedule;

    private final long holdMillis;

    FaultInjectingZooKeeper(final String connectString, final int sessionTimeout, final Watcher watcher, final boolean canBeReadOnly, final ZKClientConfig config,
                            final FaultSchedule schedule, final long holdMillis) throws IOException {
        super(connectString, sessionTimeout, watcher, canBeReadOnly, config == null ? new ZKClientConfig() : config);
        this.schedule = schedule;
        this.holdMillis = holdMillis;
    }

    /** One synchronous ZooKeeper call. */
    @FunctionalInterface
    private interface Call<T> {

        T run() throws KeeperException, InterruptedException;
    }

    /** The fault this call suffers, or null; counts the call when SnowKey made it. */
    private StoreFault faultOf(final String operation) {
        if (INSIDE.get()) {
            return null;
        }
        return SnowKeyCallSite.ofCurrentThread().map(frame -> schedule.count(operation + " at " + frame)).orElse(null);
    }

    private <T> T sync(final String operation, final String path, final Call<T> call) throws KeeperException, InterruptedException {
        boolean outermost = !INSIDE.get();
        StoreFault fault = faultOf(operation);
        INSIDE.set(true);
        try {
            if (fault == null) {
                return call.run();
            }
            switch (fault) {
                case ERROR:
                    throw KeeperException.create(KeeperException.Code.CONNECTIONLOSS, path);
                case TIMEOUT:
                    throw timedOut(path);
                default:
                    try {
                        call.run();
                    } catch (final KeeperException ex) {
                        // The server's refusal is an answer too, and it is lost all the same.
                    }
                    throw KeeperException.create(KeeperException.Code.CONNECTIONLOSS, path);
            }
        } finally {
            if (outermost) {
                INSIDE.set(false);
            }
        }
    }

    private KeeperException timedOut(final String path) throws InterruptedException {
        Thread.sleep(holdMillis);
        return KeeperException.create(KeeperException.Code.REQUESTTIMEOUT, path);
    }

    /**
     * An asynchronous call: {@code normal} sends it as asked, {@code answerLost} sends it with a callback that reports
     * CONNECTIONLOSS whatever the server answered, {@code fail} reports a result code without sending anything.
     */
    private void async(final String operation, final Runnable normal, final Runnable answerLost, final IntConsumer fail) {
        boolean outermost = !INSIDE.get();
        StoreFault fault = faultOf(operation);
        INSIDE.set(true);
        try {
            if (fault == null) {
                normal.run();
            } else if (fault == StoreFault.ERROR) {
                fail.accept(KeeperException.Code.CONNECTIONLOSS.intValue());
            } else if (fault == StoreFault.TIMEOUT) {
                try {
                    timedOut(null);
                } catch (final InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
                fail.accept(KeeperException.Code.REQUESTTIMEOUT.intValue());
            } else {
                answerLost.run();
            }
        } finally {
            if (outermost) {
                INSIDE.set(false);
            }
        }
    }

    @Override
    public String create(final String path, final byte[] data, final List<ACL> acl, final CreateMode mode) throws KeeperException, InterruptedException {
        return sync("create", path, () -> super.create(path, data, acl, mode));
    }

    @Override
    public String create(final String path, final byte[] data, final List<ACL> acl, final CreateMode mode, final Stat stat) throws KeeperException, InterruptedException {
        return sync("create", path, () -> super.create(path, data, acl, mode, stat));
    }

    @Override
    public String create(final String path, final byte[] data, final List<ACL> acl, final CreateMode mode, final Stat stat, final long ttl)
            throws KeeperException, InterruptedException {
        return sync("create", path, () -> super.create(path, data, acl, mode, stat, ttl));
    }

    @Override
    public void create(final String path, final byte[] data, final List<ACL> acl, final CreateMode mode, final AsyncCallback.StringCallback cb, final Object ctx) {
        async("create", () -> super.create(path, data, acl, mode, cb, ctx),
                () -> super.create(path, data, acl, mode, (rc, p, c, name) -> cb.processResult(LOST, p, c, null), ctx),
                rc -> cb.processResult(rc, path, ctx, null));
    }

    @Override
    public void create(final String path, final byte[] data, final List<ACL> acl, final CreateMode mode, final AsyncCallback.Create2Callback cb, final Object ctx) {
        async("create", () -> super.create(path, data, acl, mode, cb, ctx),
                () -> super.create(path, data, acl, mode, (AsyncCallback.Create2Callback) (rc, p, c, name, stat) -> cb.processResult(LOST, p, c, null, null), ctx),
                rc -> cb.processResult(rc, path, ctx, null, null));
    }

    @Override
    public void create(final String path, final byte[] data, final List<ACL> acl, final CreateMode mode, final AsyncCallback.Create2Callback cb, final Object ctx,
                       final long ttl) {
        async("create", () -> super.create(path, data, acl, mode, cb, ctx, ttl),
                () -> super.create(path, data, acl, mode, (rc, p, c, name, stat) -> cb.processResult(LOST, p, c, null, null), ctx, ttl),
                rc -> cb.processResult(rc, path, ctx, null, null));
    }

    @Override
    public void delete(final String path, final int version) throws InterruptedException, KeeperException {
        sync("delete", path, () -> {
            super.delete(path, version);
            return null;
        });
    }

    @Override
    public void delete(final String path, final int version, final AsyncCallback.VoidCallback cb, final Object ctx) {
        async("delete", () -> super.delete(path, version, cb, ctx), () -> super.delete(path, version, (rc, p, c) -> cb.processResult(LOST, p, c), ctx),
                rc -> cb.processResult(rc, path, ctx));
    }

    @Override
    public List<OpResult> multi(final Iterable<Op> ops) throws InterruptedException, KeeperException {
        return sync("multi", null, () -> super.multi(ops));
    }

    @Override
    public void multi(final Iterable<Op> ops, final AsyncCallback.MultiCallback cb, final Object ctx) {
        async("multi", () -> super.multi(ops, cb, ctx), () -> super.multi(ops, (rc, p, c, results) -> cb.processResult(LOST, p, c, null), ctx),
                rc -> cb.processResult(rc, null, ctx, null));
    }

    @Override
    public Stat exists(final String path, final Watcher watcher) throws KeeperException, InterruptedException {
        return sync("exists", path, () -> super.exists(path, watcher));
    }

    @Override
    public Stat exists(final String path, final boolean watch) throws KeeperException, InterruptedException {
        return sync("exists", path, () -> super.exists(path, watch));
    }

    @Override
    public void exists(final String path, final Watcher watcher, final AsyncCallback.StatCallback cb, final Object ctx) {
        async("exists", () -> super.exists(path, watcher, cb, ctx), () -> super.exists(path, watcher, (rc, p, c, stat) -> cb.processResult(LOST, p, c, null), ctx),
                rc -> cb.processResult(rc, path, ctx, null));
    }

    @Override
    public void exists(final String path, final boolean watch, final AsyncCallback.StatCallback cb, final Object ctx) {
        async("exists", () -> super.exists(path, watch, cb, ctx), () -> super.exists(path, watch, (rc, p, c, stat) -> cb.processResult(LOST, p, c, null), ctx),
                rc -> cb.processResult(rc, path, ctx, null));
    }

    @Override
    public byte[] getData(final String path, final Watcher watcher, final Stat stat) throws KeeperException, InterruptedException {
        return sync("getData", path, () -> super.getData(path, watcher, stat));
    }

    @Override
    public byte[] getData(final String path, final boolean watch, final Stat stat) throws KeeperException, InterruptedException {
        return sync("getData", path, () -> super.getData(path, watch, stat));
    }

    @Override
    public void getData(final String path, final Watcher watcher, final AsyncCallback.DataCallback cb, final Object ctx) {
        async("getData", () -> super.getData(path, watcher, cb, ctx),
                () -> super.getData(path, watcher, (rc, p, c, data, stat) -> cb.processResult(LOST, p, c, null, null), ctx),
                rc -> cb.processResult(rc, path, ctx, null, null));
    }

    @Override
    public void getData(final String path, final boolean watch, final AsyncCallback.DataCallback cb, final Object ctx) {
        async("getData", () -> super.getData(path, watch, cb, ctx),
                () -> super.getData(path, watch, (rc, p, c, data, stat) -> cb.processResult(LOST, p, c, null, null), ctx),
                rc -> cb.processResult(rc, path, ctx, null, null));
    }

    @Override
    public Stat setData(final String path, final byte[] data, final int version) throws KeeperException, InterruptedException {
        return sync("setData", path, () -> super.setData(path, data, version));
    }

    @Override
    public void setData(final String path, final byte[] data, final int version, final AsyncCallback.StatCallback cb, final Object ctx) {
        async("setData", () -> super.setData(path, data, version, cb, ctx),
                () -> super.setData(path, data, version, (rc, p, c, stat) -> cb.processResult(LOST, p, c, null), ctx),
                rc -> cb.processResult(rc, path, ctx, null));
    }

    @Override
    public List<ACL> getACL(final String path, final Stat stat) throws KeeperException, InterruptedException {
        return sync("getACL", path, () -> super.getACL(path, stat));
    }

    @Override
    public void getACL(final String path, final Stat stat, final AsyncCallback.ACLCallback cb, final Object ctx) {
        async("getACL", () -> super.getACL(path, stat, cb, ctx),
                () -> super.getACL(path, stat, (rc, p, c, acl, s) -> cb.processResult(LOST, p, c, null, null), ctx),
                rc -> cb.processResult(rc, path, ctx, null, null));
    }

    @Override
    public Stat setACL(final String path, final List<ACL> acl, final int aclVersion) throws KeeperException, InterruptedException {
        return sync("setACL", path, () -> super.setACL(path, acl, aclVersion));
    }

    @Override
    public void setACL(final String path, final List<ACL> acl, final int version, final AsyncCallback.StatCallback cb, final Object ctx) {
        async("setACL", () -> super.setACL(path, acl, version, cb, ctx),
                () -> super.setACL(path, acl, version, (rc, p, c, stat) -> cb.processResult(LOST, p, c, null), ctx),
                rc -> cb.processResult(rc, path, ctx, null));
    }

    @Override
    public List<String> getChildren(final String path, final Watcher watcher) throws KeeperException, InterruptedException {
        return sync("getChildren", path, () -> super.getChildren(path, watcher));
    }

    @Override
    public List<String> getChildren(final String path, final boolean watch) throws KeeperException, InterruptedException {
        return sync("getChildren", path, () -> super.getChildren(path, watch));
    }

    @Override
    public List<String> getChildren(final String path, final Watcher watcher, final Stat stat) throws KeeperException, InterruptedException {
        return sync("getChildren", path, () -> super.getChildren(path, watcher, stat));
    }

    @Override
    public List<String> getChildren(final String path, final boolean watch, final Stat stat) throws KeeperException, InterruptedException {
        return sync("getChildren", path, () -> super.getChildren(path, watch, stat));
    }

    @Override
    public void getChildren(final String path, final Watcher watcher, final AsyncCallback.ChildrenCallback cb, final Object ctx) {
        async("getChildren", () -> super.getChildren(path, watcher, cb, ctx),
                () -> super.getChildren(path, watcher, (AsyncCallback.ChildrenCallback) (rc, p, c, children) -> cb.processResult(LOST, p, c, null), ctx),
                rc -> cb.processResult(rc, path, ctx, null));
    }

    @Override
    public void getChildren(final String path, final boolean watch, final AsyncCallback.ChildrenCallback cb, final Object ctx) {
        async("getChildren", () -> super.getChildren(path, watch, cb, ctx),
                () -> super.getChildren(path, watch, (AsyncCallback.ChildrenCallback) (rc, p, c, children) -> cb.processResult(LOST, p, c, null), ctx),
                rc -> cb.processResult(rc, path, ctx, null));
    }

    @Override
    public void getChildren(final String path, final Watcher watcher, final AsyncCallback.Children2Callback cb, final Object ctx) {
        async("getChildren", () -> super.getChildren(path, watcher, cb, ctx),
                () -> super.getChildren(path, watcher, (AsyncCallback.Children2Callback) (rc, p, c, children, stat) -> cb.processResult(LOST, p, c, null, null), ctx),
                rc -> cb.processResult(rc, path, ctx, null, null));
    }

    @Override
    public void getChildren(final String path, final boolean watch, final AsyncCallback.Children2Callback cb, final Object ctx) {
        async("getChildren", () -> super.getChildren(path, watch, cb, ctx),
                () -> super.getChildren(path, watch, (AsyncCallback.Children2Callback) (rc, p, c, children, stat) -> cb.processResult(LOST, p, c, null, null), ctx),
                rc -> cb.processResult(rc, path, ctx, null, null));
    }

    @Override
    public void sync(final String path) throws KeeperException, InterruptedException {
        sync("sync", path, () -> {
            super.sync(path);
            return null;
        });
    }

    @Override
    public void sync(final String path, final AsyncCallback.VoidCallback cb, final Object ctx) {
        async("sync", () -> super.sync(path, cb, ctx), () -> super.sync(path, (rc, p, c) -> cb.processResult(LOST, p, c), ctx),
                rc -> cb.processResult(rc, path, ctx));
    }
}
