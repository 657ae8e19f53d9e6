package org.snowkey.lease;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.OptionalInt;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small local file remembering the worker id this host last held in one lease scope, so that a restarted
 * process asks for the same number first (operators see stable numbers, and the pool is not spread over many
 * half-expired numbers after restarts). It is only a preference: a missing, unreadable or unwritable file costs
 * nothing but a scan, so failures are warnings, never errors.
 */
public final class WorkerIdCheckpoint {

    /** System property naming the directory; defaults to {@code <java.io.tmpdir>/snowkey}. */
    public static final String DIRECTORY_PROPERTY = "snowkey.lease.checkpoint-dir";

    private static final Logger LOG = LoggerFactory.getLogger(WorkerIdCheckpoint.class);

    /** Where the number is kept, or null for a checkpoint that keeps nothing ({@link #none()}). */
    private final Path file;

    private volatile boolean warned;

    /**
     * @param directory where checkpoint files live
     * @param scope what the number belongs to (registry, location, pool); hashed into the file name
     */
    public WorkerIdCheckpoint(final Path directory, final String scope) {
        this.file = directory.resolve("snowkey-lease-" + hash(scope) + ".id");
    }

    private WorkerIdCheckpoint() {
        this.file = null;
    }

    /**
     * A checkpoint that remembers nothing: for the extra leases of a hot generator, whose numbers a restart should not
     * prefer over the one its scope's lease held.
     */
    public static WorkerIdCheckpoint none() {
        return new WorkerIdCheckpoint();
    }

    /** The checkpoint of a scope in the directory named by {@value #DIRECTORY_PROPERTY}. */
    public static WorkerIdCheckpoint inDefaultDirectory(final String scope) {
        String configured = System.getProperty(DIRECTORY_PROPERTY);
        Path directory = configured == null || configured.isBlank()
                ? Path.of(System.getProperty("java.io.tmpdir"), "snowkey") : Path.of(configured.trim());
        return new WorkerIdCheckpoint(directory, scope);
    }

    public Path file() {
        return file;
    }

    /** The number held last, or empty when unknown. */
    public OptionalInt read() {
        if (file == null || !Files.isRegularFile(file)) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(Files.readString(file, StandardCharsets.UTF_8).trim()));
        } catch (final IOException | NumberFormatException | SecurityException ex) {
            LOG.warn("SnowKey ignores the worker id checkpoint {}: {}", file, ex.toString());
            return OptionalInt.empty();
        }
    }

    /** Remembers a number; a failure is logged once as a warning. */
    public void write(final int workerId) {
        if (file == null) {
            return;
        }
        try {
            Files.createDirectories(file.getParent());
            // Write then move, so that a crash mid-write never leaves a half-written number behind.
            Path temp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
            Files.writeString(temp, Integer.toString(workerId), StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (final IOException | SecurityException | UnsupportedOperationException ex) {
            if (!warned) {
                warned = true;
                LOG.warn("SnowKey could not write the worker id checkpoint {} ({}); a restart will scan for a free number instead of "
                        + "preferring worker id {}. Set -D{} to a writable directory to keep it", file, ex.toString(), workerId, DIRECTORY_PROPERTY);
            }
        }
    }

    private static String hash(final String scope) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(scope.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (final NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", ex);
        }
    }
}
