package org.snowkey.keygen.testing;

import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.keygen.lease.WorkerLease;

/** A lease whose grant a test replaces by hand, as a registry backend would after a loss. */
public final class SwitchableLease implements WorkerLease {

    private volatile LeaseGrant grant;

    public SwitchableLease(final LeaseGrant grant) {
        this.grant = grant;
    }

    public void replace(final LeaseGrant next) {
        grant = next;
    }

    public LeaseGrant grant() {
        return grant;
    }

    @Override
    public LeaseGrant currentGrant() {
        LeaseGrant current = grant;
        if (current.isRevoked()) {
            throw new LeaseUnavailableException("test lease revoked: " + current.revocationReason());
        }
        return current;
    }

    @Override
    public String describe() {
        return "test lease";
    }

    @Override
    public void close() {
        grant.sealForRelease("closed");
    }
}
