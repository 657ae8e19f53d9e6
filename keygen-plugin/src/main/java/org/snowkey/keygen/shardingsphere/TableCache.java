package org.snowkey.keygen.shardingsphere;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * What an INSERT's table maps to (a sequence stream, a segment sequence) for the scope the binding issues from, cached
 * by database and table name as ShardingSphere passes them, to spare building a lookup key per INSERT. Both key
 * generators' bindings use it.
 *
 * <ul>
 *   <li>The entry of the last table asked for is matched by identity of the scope and of the name strings: a burst into
 *       one table (ShardingSphere passes the same strings for a cached statement) costs reference comparisons. A plain
 *       field is enough, since the entry is immutable and a stale read only costs a lookup.</li>
 *   <li>Each map belongs to one scope, so that a value cached by a thread that still read the previous scope while the
 *       binding switched can never be handed out for the new one.</li>
 * </ul>
 *
 * @param <S> the scope (an {@code IdGenerator}, a {@code SegmentScope})
 * @param <V> what a table maps to in it
 */
final class TableCache<S, V> {

    /** Makes the value of {@code <database>.<table>} (names as passed, not folded) in a scope; called once per table and scope. */
    private final BiFunction<S, String, V> byName;

    private volatile ByTable<S, V> byTable = new ByTable<>(null);

    private Last<S, V> last;

    TableCache(final BiFunction<S, String, V> byName) {
        this.byName = byName;
    }

    V get(final S scope, final String database, final String table) {
        Last<S, V> entry = last;
        if (entry != null && entry.scope() == scope && entry.database() == database && entry.table() == table) {
            return entry.value();
        }
        return lookUp(scope, database, table);
    }

    /** Kept apart from {@link #get} so the key path stays small enough for the JIT to inline. */
    private V lookUp(final S scope, final String database, final String table) {
        ByTable<S, V> current = byTable;
        if (current.scope() != scope) {
            current = new ByTable<>(scope);
            byTable = current;
        }
        String db = database == null ? "" : database;
        String tb = table == null ? "" : table;
        Map<String, V> tables = current.values().computeIfAbsent(db, key -> new ConcurrentHashMap<>());
        V value = tables.get(tb);
        if (value == null) {
            value = tables.computeIfAbsent(tb, key -> byName.apply(scope, db + "." + key));
        }
        last = new Last<>(scope, database, table, value);
        return value;
    }

    private record Last<S, V>(S scope, String database, String table, V value) {
    }

    private record ByTable<S, V>(S scope, Map<String, Map<String, V>> values) {

        ByTable(final S scope) {
            this(scope, new ConcurrentHashMap<>());
        }
    }
}
