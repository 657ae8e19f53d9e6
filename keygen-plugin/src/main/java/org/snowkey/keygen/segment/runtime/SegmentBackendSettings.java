package org.snowkey.keygen.segment.runtime;

/**
 * An allocator backend's own props, parsed once by its {@link SegmentAllocatorProvider#parse} and handed back to the
 * same provider's {@link SegmentAllocatorProvider#prepare}. Opaque to the plugin; implementations never print secrets.
 */
public interface SegmentBackendSettings {
}
