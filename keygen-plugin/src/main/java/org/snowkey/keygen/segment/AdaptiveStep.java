package org.snowkey.keygen.segment;

/**
 * Sizes the next range from how long the previous one lasted, aiming at a target lifetime: the classic rule of
 * segment generators (size a range for a few seconds of peak use, double or halve from there), within bounds.
 *
 * <p>The trade-off (docs/design.md, "Segment mode"): a bigger step means fewer round trips and a longer runway
 * through an allocator outage, and more keys lost on a restart (the unused tail of the ranges in memory).
 */
record AdaptiveStep(long minStep, long maxStep, long targetLifetimeNanos) {

    /**
     * The size of the next range.
     *
     * @param currentStep         the size last asked for
     * @param observedLifetimeNanos how long ago the previous allocation started, or a negative value for the first one
     */
    long next(final long currentStep, final long observedLifetimeNanos) {
        if (observedLifetimeNanos < 0) {
            return minStep;
        }
        if (observedLifetimeNanos < targetLifetimeNanos / 2) {
            return Math.min(maxStep, saturatedDouble(currentStep));
        }
        if (observedLifetimeNanos > targetLifetimeNanos * 2) {
            return Math.max(minStep, currentStep / 2);
        }
        return Math.max(minStep, Math.min(maxStep, currentStep));
    }

    private static long saturatedDouble(final long step) {
        return step > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : step * 2;
    }
}
