package org.snowkey.segment.store.zookeeper;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorMultiTransaction;
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
        return proxy(CuratorFramework.class, real, (name, result) -> "transaction".equals(name) ? transaction((CuratorMultiTransaction) result, loseNext) : result);
    }

    private static CuratorMultiTransaction transaction(final CuratorMultiTransaction real, final AtomicBoolean loseNext) {
        return proxy(CuratorMultiTransaction.class, real, (name, result) -> {
            // The multi-op ran (its result is in); only the answer goes missing.
            if ("forOperations".equals(name) && loseNext.getAndSet(false)) {
                throw new KeeperException.ConnectionLossException();
            }
            return result;
        });
    }

    private static <T> T proxy(final Class<T> type, final T real, final AfterCall after) {
        InvocationHandler handler = (proxy, method, args) -> {
            Object result;
            try {
                result = method.invoke(real, args);
            } catch (final InvocationTargetException ex) {
                throw ex.getCause();
            }
            return after.apply(method.getName(), result);
        };
        return type.cast(Proxy.newProxyInstance(AnswerLosingCurator.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    @FunctionalInterface
    private interface AfterCall {

        Object apply(String method, Object result) throws Exception;
    }
}
