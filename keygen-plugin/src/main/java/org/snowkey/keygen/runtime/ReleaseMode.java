package org.snowkey.keygen.runtime;

/** Who may release a scope an owner uses when the JVM shuts down. */
public enum ReleaseMode {

    /** The JVM shutdown hook releases the scope (ShardingSphere contexts: nothing else would). */
    AT_JVM_SHUTDOWN,

    /**
     * The owner calls {@link SnowflakeRuntime#release(Object)} itself, also at JVM shutdown, after its data sources
     * have stopped (a Spring context): the shutdown hook leaves the scope to it.
     */
    BY_OWNER;

    ReleaseMode strongest(final ReleaseMode other) {
        return this == BY_OWNER || other == BY_OWNER ? BY_OWNER : AT_JVM_SHUTDOWN;
    }
}
