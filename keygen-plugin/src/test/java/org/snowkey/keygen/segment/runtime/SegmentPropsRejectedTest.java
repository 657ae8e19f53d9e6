package org.snowkey.keygen.segment.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.snowkey.keygen.config.InvalidSettingException;

/** Props that must not slip through parsing, and values that must not reach a message. */
class SegmentPropsRejectedTest {

    private final SegmentPlanner planner = new SegmentPlanner(Map.of(TestAllocatorProvider.NAME, new TestAllocatorProvider()));

    private static Properties allocator() {
        Properties props = new Properties();
        props.setProperty("segment-allocator", "test");
        props.setProperty("test-store", "a");
        return props;
    }

    /**
     * Props built in code (ShardingSphere's Java API, {@code Properties.put}) may hold an Integer or a Boolean; the
     * 5.5.2 YAML loader hands Strings over (checked), which is why this is not tested through YAML.
     */
    @Test
    void aMisspeltPropWithANumberOrFlagForValueIsRejected() {
        Properties number = allocator();
        number.put("segment-step-mni", 100);
        assertEquals("segment-step-mni", assertThrows(InvalidSettingException.class, () -> planner.parse(number)).property());
        Properties flag = allocator();
        flag.put("segment-prefetch", Boolean.TRUE);
        assertEquals("segment-prefetch", assertThrows(InvalidSettingException.class, () -> planner.parse(flag)).property());
    }

    @Test
    void aBackendPropWithANumberForValueBesideNoAllocatorCannotApply() {
        Properties props = new Properties();
        props.put("test-store", 7);
        assertEquals("test-store", assertThrows(InvalidSettingException.class, () -> planner.parse(props)).property());
    }

    @Test
    void aUrlWithCredentialsOfAnAbsentBackendIsNotQuoted() {
        Properties props = allocator();
        props.setProperty("jdbc-url", "jdbc:postgresql://alice:s3cretPw@db:5432/app?password=s3cretPw");
        InvalidSettingException ex = assertThrows(InvalidSettingException.class, () -> planner.parse(props));
        assertEquals("jdbc-url", ex.property());
        assertFalse(ex.getMessage().contains("s3cretPw"), ex.getMessage());
        assertFalse(ex.shownValue().contains("s3cretPw"), ex.shownValue());
    }
}
