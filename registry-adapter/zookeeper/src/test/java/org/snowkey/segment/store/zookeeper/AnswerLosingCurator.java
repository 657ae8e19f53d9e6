package org.snowkey.segment.store.zookeeper;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorMultiTransaction;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException;

/**
 * A Curator client whose next multi-op is applied by the ensemble and then reported as a connection loss, as when
 * the connection drops between the server's commit and its answer. Everything else goes straight to the real client.
 */
final class AnswerLosingCurator {

    private AnswerLosingCurator() {
    }

    static CuratorFramework losingNextMultiOp(final CuratorFramework real) {
        AtomicBoolean loseNext = new AtomicBoolean(true);
        return proxy(CuratorFramework.class, real, (name, args, result) -> "transaction".equals(name) ? transaction((CuratorMultiTransaction) result, (ops, applied) -> {
            // The multi-op ran (its result is in); only the answer goes missing.
            if (loseNext.getAndSet(false)) {
                throw new KeeperException.ConnectionLossException();
            }
            return applied;
        }) : result);
    }

    /**
     * A client whose next multi-op is applied and then sent again, as a client library's retry after a lost answer
     * does; the caller sees the answer to the second sending only.
     */
    static CuratorFramework replayingNextMultiOp(final CuratorFramework real) {
        AtomicBoolean replayNext = new AtomicBoolean(true);
        return proxy(CuratorFramework.class, real, (name, args, result) -> "transaction".equals(name) ? transaction((CuratorMultiTransaction) result, (ops, applied) ->
                replayNext.getAndSet(false) ? real.transaction().forOperations((CuratorOp[]) ops) : applied) : result);
    }

    private static CuratorMultiTransaction transaction(final CuratorMultiTransaction real, final AfterMultiOp after) {
        return proxy(CuratorMultiTransaction.class, real, (name, args, result) -> "forOperations".equals(name) ? after.apply(args[0], result) : result);
    }

    @FunctionalInterface
    private interface AfterMultiOp {

        Object apply(Object operations, Object applied) throws Exception;
    }

    private static <T> T proxy(final Class<T> type, final T real, final AfterCall after) {
        InvocationHandler handler = (proxy, method, args) -> {
            Object result;
            try {
                result = method.invoke(real, args);
            } catch (final InvocationTargetException ex) {
                throw ex.getCause();
            }
            return after.apply(method.getName(), args, result);
        };
        return type.cast(Proxy.newProxyInstance(AnswerLosingCurator.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    @FunctionalInterface
    private interface AfterCall {

        Object apply(String method, Object[] args, Object result) throws Exception;
    }
}
