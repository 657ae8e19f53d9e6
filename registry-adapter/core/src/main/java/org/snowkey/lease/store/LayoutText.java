package org.snowkey.lease.store;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.layout.IdLayout;

/**
 * The id layout as lease records store it, in the words of the props that set it:
 * {@code worker-id-bits=13,sequence-low-bits=1,epoch=2025-01-01T00:00:00Z}. Both stores write this text (a ZooKeeper
 * record's {@code layout} field, the JDBC table's {@code id_layout} column), so that an operator reads the same thing.
 */
public final class LayoutText {

    private static final Pattern FORMAT = Pattern.compile(PropertyNames.WORKER_ID_BITS + "=(\\d{1,2})," + PropertyNames.SEQUENCE_LOW_BITS + "=(\\d{1,2}),"
            + PropertyNames.EPOCH + "=(\\S{1,40})");

    private LayoutText() {
    }

    public static String format(final IdLayout layout) {
        return PropertyNames.WORKER_ID_BITS + "=" + layout.workerIdBits() + "," + PropertyNames.SEQUENCE_LOW_BITS + "=" + layout.sequenceLowBits() + ","
                + PropertyNames.EPOCH + "=" + Instant.ofEpochMilli(layout.epochMillis());
    }

    /**
     * @throws IllegalArgumentException when the text is not a layout this class wrote
     */
    public static IdLayout parse(final String text) {
        Matcher matcher = FORMAT.matcher(text.trim());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("layout '" + text + "' is not of the form " + format(IdLayout.defaults()));
        }
        try {
            return IdLayout.of(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)), Instant.parse(matcher.group(3)).toEpochMilli());
        } catch (final DateTimeParseException ex) {
            throw new IllegalArgumentException("layout '" + text + "' has an epoch that is not an ISO-8601 instant", ex);
        }
    }
}
