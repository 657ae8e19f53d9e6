package org.snowkey.keygen.lease;

/** A sequence stream issuing on a {@link LeaseGrant}, as the grant sees it when it is released. */
public interface HighWaterSource {

    /**
     * Stops the stream issuing on the grant and returns the highest wall-clock millisecond it issued,
     * or {@code Long.MIN_VALUE} when it issued nothing. After it returns, no id of the stream can carry a
     * later timestamp on this grant.
     */
    long seal();
}
