package org.snowkey.keygen.segment.runtime;

import org.snowkey.keygen.config.PropertyReader;
import org.snowkey.keygen.generator.StreamNames;
import org.snowkey.keygen.segment.SegmentPropertyNames;

/**
 * The {@code segment-key} setting: which sequence the INSERTs of a key generator draw from. Either one shared key for
 * every table, or none, and then each logic table has a sequence of its own ({@code <database>.<table>}). Parsed once
 * at start-up and carried whole through the plan, where it is part of the scope key, and the scope to the binding,
 * which picks a table's sequence with it.
 *
 * @param shared the one key of every table, folded as ShardingSphere folds table names, or null for a key per logic table
 */
public record SegmentKey(String shared) {

    /** No {@code segment-key}: a sequence per logic table. */
    public static final SegmentKey PER_TABLE = new SegmentKey(null);

    /** The {@code segment-key} prop, folded like a table name; {@link #PER_TABLE} when it is not set. */
    static SegmentKey parse(final PropertyReader reader) {
        String text = reader.text(SegmentPropertyNames.KEY);
        return text == null ? PER_TABLE : new SegmentKey(SegmentPropsParser.sequenceKey(SegmentPropertyNames.KEY, text));
    }

    public boolean isShared() {
        return shared != null;
    }

    /**
     * The key of the sequence an INSERT into that table draws from: the shared key, or the table's own folded as
     * ShardingSphere folds table names.
     *
     * @param table the logic table, {@code <database>.<table>}
     */
    public String sequenceOf(final String table) {
        return shared != null ? shared : StreamNames.normalise(table);
    }

    /** As part of a scope key: two key generators with different keys must not share a scope. */
    @Override
    public String toString() {
        return shared == null ? "key per table" : "shared key=" + shared;
    }
}
