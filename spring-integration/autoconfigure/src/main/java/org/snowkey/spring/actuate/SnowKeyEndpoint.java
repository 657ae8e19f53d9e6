package org.snowkey.spring.actuate;

import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * {@code /actuator/snowkey}: the worker id, the worker ids the generator issues on now ({@code workerIds}, more than
 * one while it is hot), lease, time cache, ids issued and layout, and every live segment scope with its sequences
 * ({@code segments}); {@code /actuator/snowkey/{id}} decodes an id.
 */
@Endpoint(id = "snowkey")
public class SnowKeyEndpoint {

    private final SnowKeyIdGenerator generator;

    public SnowKeyEndpoint(final SnowKeyIdGenerator generator) {
        this.generator = generator;
    }

    @ReadOperation
    public SnowKeyDescriptors.Generator snowkey() {
        return SnowKeyDescriptors.describe(generator, SegmentRuntime.get().scopes());
    }

    /** Decodes an id with this generator's layout (ids made with another layout decode to other parts). */
    @ReadOperation
    public SnowKeyDescriptors.Decoded decode(@Selector final long id) {
        return SnowKeyDescriptors.decode(generator.decode(id));
    }
}
