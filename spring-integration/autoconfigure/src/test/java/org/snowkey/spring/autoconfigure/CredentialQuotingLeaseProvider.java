package org.snowkey.spring.autoconfigure;

import java.util.Properties;
import java.util.Set;

import org.snowkey.keygen.config.LeaseTerms;
import org.snowkey.keygen.lease.LeaseBackendSettings;
import org.snowkey.keygen.lease.LeaseGrant;
import org.snowkey.keygen.lease.LeaseRequest;
import org.snowkey.keygen.lease.LeaseStatus;
import org.snowkey.keygen.lease.PreparedLease;
import org.snowkey.keygen.lease.WorkerLease;
import org.snowkey.keygen.lease.WorkerLeaseProvider;

/**
 * {@code lease-registry: credential-quoting-test}: a careless third-party backend that quotes its connection URL,
 * credentials and all, in its scope, its description and its problem. Actuator must not pass them on.
 */
public final class CredentialQuotingLeaseProvider implements WorkerLeaseProvider {

    static final String URL = "jdbc:postgresql://app:" + SnowKeyActuatorSecretsTest.SECRET + "@db:5432/x?sslpassword=" + SnowKeyActuatorSecretsTest.SECRET
            + "&ssl=true";

    @Override
    public String registry() {
        return "credential-quoting-test";
    }

    @Override
    public Set<String> propertyNames() {
        return Set.of();
    }

    @Override
    public LeaseBackendSettings parse(final Properties props, final LeaseTerms terms) {
        return new NoSettings();
    }

    @Override
    public PreparedLease prepare(final LeaseRequest request) {
        return new PreparedLease() {

            @Override
            public String scopeKey() {
                return "quoting|" + URL;
            }

            @Override
            public WorkerLease open() {
                return new QuotingLease();
            }
        };
    }

    private record NoSettings() implements LeaseBackendSettings {
    }

    private static final class QuotingLease implements WorkerLease {

        private final LeaseGrant grant = new LeaseGrant(7, System.currentTimeMillis(), LeaseGrant.UNBOUNDED, "quoting");

        @Override
        public LeaseGrant currentGrant() {
            return grant;
        }

        @Override
        public String describe() {
            return "quoting " + URL;
        }

        @Override
        public LeaseStatus status() {
            return new LeaseStatus(describe(), "quoted", 7, -1, LeaseGrant.UNBOUNDED, true, "last renewal failed on " + URL + " (mysql://root:"
                    + SnowKeyActuatorSecretsTest.SECRET + "@db:3306/x)", 1, 1);
        }

        @Override
        public void close() {
            grant.sealForRelease("closed");
        }
    }
}
