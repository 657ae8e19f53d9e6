package org.snowkey.keygen.segment;

import java.util.Set;

/**
 * The {@code SNOWKEY_SEGMENT} props: the public contract, spelled as users write them in ShardingSphere YAML. Each
 * allocator adds the props of its store ({@code jdbc-*}, {@code zookeeper-*}), which stay with the store since the
 * worker-id lease reads them too. Here, in the core package, so that the range sizing ({@link SegmentSettings}) names
 * its props in its messages without reaching up into the runtime.
 */
public final class SegmentPropertyNames {

    /** {@code jdbc} or {@code zookeeper}; may be left out in ShardingSphere Cluster mode with ZooKeeper. */
    public static final String ALLOCATOR = "segment-allocator";

    /** One key for every table of this key generator, instead of one per logic table. */
    public static final String KEY = "segment-key";

    /** The first key of every sequence of this key generator (default 1). */
    public static final String START_VALUE = "segment-start-value";

    /** First keys by sequence key: {@code sharding_db.t_order=1000001, sharding_db.t_item=5001}. */
    public static final String START_VALUES = "segment-start-values";

    public static final String STEP_MIN = "segment-step-min";

    public static final String STEP_MAX = "segment-step-max";

    public static final String RANGE_LIFETIME_MILLISECONDS = "segment-range-lifetime-milliseconds";

    public static final String PREFETCH_PERCENT = "segment-prefetch-percent";

    public static final String FETCH_TIMEOUT_MILLISECONDS = "segment-fetch-timeout-milliseconds";

    /** The props every allocator shares; each allocator adds its own. */
    public static final Set<String> NAMES = Set.of(ALLOCATOR, KEY, START_VALUE, START_VALUES, STEP_MIN, STEP_MAX, RANGE_LIFETIME_MILLISECONDS, PREFETCH_PERCENT,
            FETCH_TIMEOUT_MILLISECONDS);

    private SegmentPropertyNames() {
    }
}
