package org.snowkey.keygen.segment.runtime;

import org.snowkey.keygen.segment.StartValues;

/** A validated allocator backend, not connected yet. */
public interface PreparedAllocator {

    /**
     * What makes two allocators one: the backend and where it stores ranges (URL without credentials, table, user;
     * servers and namespace). Never a secret: it appears in logs and health.
     */
    String scopeKey();

    /**
     * Opens the allocator: builds its pool or client, connects in the background at most; the first allocation
     * connects and creates what is missing.
     *
     * @param owner  written into each range log entry, to tell who took a range
     * @param starts the first number of each key
     */
    OpenAllocator open(String owner, StartValues starts);
}
