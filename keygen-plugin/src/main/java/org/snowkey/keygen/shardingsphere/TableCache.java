package org.snowkey.keygen.shardingsphere;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * What an INSERT's table maps to (a sequence stream, a segment sequence) in the scope a binding issues from, by database
 * and table name as ShardingSphere passes them, so that no lookup key is built per INSERT. Both key generators' bindings
 * use it behind their route ({@link KeyGeneratorBinding#forTable}), which answers an INSERT into the table of the
 * previous one without coming here.
 *
 * <p>Each map belongs to one scope, so that a value cached by a thread that still read the previous scope while the
 * binding switched can never be handed out for the new one.
 *
 * @param <S> the scope (an {@code IdGenerator}, a {@code SegmentScope})
 * @param <V> what a table maps to in it
 */
final class TableCache<S, V> {

    /** Makes the value of {@code <database>.<table>} (names as passed, not folded) in a scope; called once per table and scope. */
    private final BiFunction<S, String, V> byName;

    private volatile ByTable<S, V> byTable = new ByTable<>(null);

    TableCache(final BiFunction<S, String, V> byName) {
        this.byName = byName;
    }

    V get(final S scope, final String database, final String table) {
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
        return value;
    }

    private record ByTable<S, V>(S scope, Map<String, Map<String, V>> values) {

        ByTable(final S scope) {
            this(scope, new ConcurrentHashMap<>());
        }
    }
}
