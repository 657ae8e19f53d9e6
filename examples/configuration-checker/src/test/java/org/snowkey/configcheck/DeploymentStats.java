package org.snowkey.configcheck;

/** What one deployment did, added up over a run for the closing figures. */
final class DeploymentStats {

    long keys;

    long failedCalls;

    long refusedStarts;

    void add(final DeploymentStats other) {
        keys += other.keys;
        failedCalls += other.failedCalls;
        refusedStarts += other.refusedStarts;
    }

    @Override
    public String toString() {
        return keys + " keys, " + failedCalls + " key calls failed under faults, " + refusedStarts + " key generator starts refused";
    }
}
