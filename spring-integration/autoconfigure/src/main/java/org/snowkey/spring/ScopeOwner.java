package org.snowkey.spring;

/**
 * One owner of a runtime scope: the part the Spring beans share. The owner object is this bean's membership in the
 * scope; {@link #close()} leaves the scope at most once, even when two threads close at once, and only if the bean
 * joined. When a bean joins is its own business: at start-up, or on first use.
 */
abstract class ScopeOwner implements AutoCloseable {

    /** The membership token the runtime knows this bean by. */
    private final Object owner;

    private final String beanName;

    /** Guarded by this; read without the lock by {@link #isClosed()}. */
    private volatile boolean closed;

    /** Guarded by this: whether there is a membership to leave. */
    private boolean joined;

    ScopeOwner(final Object owner, final String beanName, final boolean joined) {
        this.owner = owner;
        this.beanName = beanName;
        this.joined = joined;
    }

    final Object owner() {
        return owner;
    }

    /** Records that the runtime now counts this bean as an owner; call under this bean's lock. */
    final void joined() {
        joined = true;
    }

    /** Fails when the bean is closed, so no call reaches a scope the bean has left. */
    final void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the " + beanName + " bean is closed (its application context closed)");
        }
    }

    /** True once {@link #close()} ran: the bean issues nothing more. */
    public boolean isClosed() {
        return closed;
    }

    /** Takes this bean out of the scope's owners. */
    abstract void leave(Object owner);

    /** Leaves the scope once; later and concurrent calls do nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (joined) {
            leave(owner);
        }
    }
}
