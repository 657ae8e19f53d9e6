package org.snowkey.lease.store.zookeeper.faults;

import java.security.CodeSource;
import java.util.List;
import java.util.Optional;

/**
 * Names a store call by the first frame of SnowKey's production code on the calling thread's stack, e.g.
 * {@code ZooKeeperLeaseStore.compareAndSet:158}: the line of SnowKey that asked Curator for the call; followed by the
 * first SnowKey frame outside that class's package, e.g. {@code from LeasedWorkerLease.renew:238}, when there is one.
 * The store's one compare-and-set line serves a claim, a renewal, a release and an operator's release, which fail in
 * different ways; the caller tells them apart, so that a sweep breaks each. Test classes and this injector are
 * skipped (they are not SnowKey's call sites), and a call with no SnowKey frame at all is Curator's own housekeeping
 * (connection checks, background work), which no sweep breaks.
 */
final class SnowKeyCallSite {

    private static final StackWalker STACK = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    /** Whether a class is SnowKey's production code: cached, since every ZooKeeper call walks the stack. */
    private static final ClassValue<Boolean> PRODUCTION = new ClassValue<>() {

        @Override
        protected Boolean computeValue(final Class<?> type) {
            if (!type.getName().startsWith("org.snowkey.")) {
                return false;
            }
            CodeSource source = type.getProtectionDomain().getCodeSource();
            String location = source == null || source.getLocation() == null ? "" : source.getLocation().toString();
            return !location.contains("/test-classes/") && !location.endsWith("-tests.jar");
        }
    };

    private SnowKeyCallSite() {
    }

    /** The first SnowKey production frame and its caller from another package, or empty when SnowKey did not ask. */
    static Optional<String> ofCurrentThread() {
        List<StackWalker.StackFrame> frames = STACK.walk(stack -> stack.filter(each -> PRODUCTION.get(each.getDeclaringClass())).toList());
        if (frames.isEmpty()) {
            return Optional.empty();
        }
        StackWalker.StackFrame first = frames.get(0);
        String where = nameOf(first);
        return Optional.of(frames.stream().filter(each -> !each.getDeclaringClass().getPackageName().equals(first.getDeclaringClass().getPackageName())).findFirst()
                .map(caller -> where + " from " + nameOf(caller)).orElse(where));
    }

    private static String nameOf(final StackWalker.StackFrame frame) {
        return frame.getDeclaringClass().getSimpleName() + "." + frame.getMethodName() + ":" + frame.getLineNumber();
    }
}
