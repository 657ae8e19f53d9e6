package org.snowkey.keygen.segment.runtime;

import org.snowkey.keygen.segment.SegmentSequence;

/**
 * Told of each sequence a live scope creates (on the first key of a table, long after start-up), so that metrics can
 * follow sequences that did not exist when they were bound. Called once per sequence on the thread that asked for its
 * first key, after the sequence is in place and outside every lock: it must return quickly and may not issue keys.
 */
@FunctionalInterface
public interface SegmentSequenceListener {

    void created(SegmentScope scope, SegmentSequence sequence);
}
