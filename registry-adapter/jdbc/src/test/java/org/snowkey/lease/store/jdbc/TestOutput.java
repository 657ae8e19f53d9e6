package org.snowkey.lease.store.jdbc;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;

/** What the secrets tests search for a password in: a whole stack trace, and the console as it was written. */
final class TestOutput {

    private TestOutput() {
    }

    /** The trace as printed, causes and suppressed exceptions included. */
    static String trace(final Throwable error) {
        StringWriter out = new StringWriter();
        error.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    /** Writes to both streams: keeps the console output visible while recording it. */
    static OutputStream tee(final OutputStream first, final OutputStream second) {
        return new OutputStream() {

            @Override
            public void write(final int b) throws IOException {
                first.write(b);
                second.write(b);
            }

            @Override
            public void write(final byte[] b, final int off, final int len) throws IOException {
                first.write(b, off, len);
                second.write(b, off, len);
            }
        };
    }
}
