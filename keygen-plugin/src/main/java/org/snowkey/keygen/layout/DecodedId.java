package org.snowkey.keygen.layout;

import java.time.Instant;

/**
 * The parts of one id.
 *
 * @param id the id itself
 * @param timestamp when the id's logical timestamp lies (UTC); with the historical clock this can be earlier
 *                  than the moment the id was issued, never later
 * @param logicalTimestamp milliseconds since the layout's epoch
 * @param workerId the worker id that issued it
 * @param sequence the sequence within the millisecond, high and low part joined
 */
public record DecodedId(long id, Instant timestamp, long logicalTimestamp, int workerId, int sequence) {

    @Override
    public String toString() {
        return id + " timestamp=" + timestamp + " worker-id=" + workerId + " sequence=" + sequence;
    }
}
