package org.snowkey.keygen.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.UnknownHostException;
import java.sql.SQLException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every URL shape the supported drivers accept loses its credentials, and the secret values it carried are cleaned
 * from any text, including fragments a driver quotes ("UnknownHostException: postgres:PW@127.0.0.1").
 */
class UrlCredentialsTest {

    private static final String PW = "Pw-7z!Qx";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "jdbc:postgresql://postgres:Pw-7z!Qx@127.0.0.1:1/test|jdbc:postgresql://127.0.0.1:1/test",
            "jdbc:postgresql://db/x?PASSWORD=Pw-7z!Qx&sslpassword=Pw-7z!Qx&sslkey=/k.pk8&sslmode=verify-full|jdbc:postgresql://db/x?sslmode=verify-full",
            "jdbc:postgresql://u:Pw-7z%21Qx@db/x|jdbc:postgresql://db/x",
            "jdbc:mysql://(host=127.0.0.1,port=3306,user=root,password=Pw-7z!Qx)/test|jdbc:mysql://(host=127.0.0.1,port=3306)/test",
            "jdbc:mysql://(password=Pw-7z!Qx,host=127.0.0.1)/test|jdbc:mysql://(host=127.0.0.1)/test",
            "jdbc:mysql://[(host=h1,password=Pw-7z!Qx),(host=h2,PWD=Pw-7z!Qx)]/db|jdbc:mysql://[(host=h1),(host=h2)]/db",
            "jdbc:mysql://address=(host=h1)(port=3306)(password=Pw-7z!Qx),address=(host=h2)(user=u)/db|jdbc:mysql://address=(host=h1)(port=3306),address=(host=h2)/db",
            "jdbc:mysql://u:Pw-7z!Qx@h1:3306,u:Pw-7z!Qx@h2:3306/db?useSSL=true|jdbc:mysql://h1:3306,h2:3306/db?useSSL=true",
            "jdbc:mysql://db/x?trustCertificateKeyStorePassword=Pw-7z!Qx&password1=Pw-7z!Qx&useSSL=true|jdbc:mysql://db/x?useSSL=true",
            "jdbc:mariadb:replication://u:Pw-7z!Qx@h1,h2/db|jdbc:mariadb:replication://h1,h2/db",
            "jdbc:mariadb://db/x?keyStorePassword=Pw-7z!Qx|jdbc:mariadb://db/x",
            "jdbc:h2:tcp://localhost/~/x;user=sa;password=Pw-7z!Qx;MODE=MySQL|jdbc:h2:tcp://localhost/~/x;MODE=MySQL",
            "jdbc:h2:mem:x;Password=Pw-7z!Qx|jdbc:h2:mem:x",
            "jdbc:oracle:thin:scott/Pw-7z!Qx@//db:1521/svc|jdbc:oracle:thin:@//db:1521/svc",
            "jdbc:sqlserver://db;user=app;pwd=Pw-7z!Qx;databaseName=x|jdbc:sqlserver://db;databaseName=x"})
    void stripsEveryShape(final String url, final String expected) {
        assertEquals(expected, UrlCredentials.withoutCredentials(url));
        assertTrue(UrlCredentials.secretsIn(url).contains(PW), UrlCredentials.secretsIn(url).toString());
        Redactor redactor = Redactor.of(url);
        // What drivers print: the URL, a fragment of it, the decoded password, the password alone.
        for (String quoted : new String[] {url, "postgres:" + PW + "@127.0.0.1", "password=" + PW + ")", "login failed for " + PW}) {
            String cleaned = redactor.clean(quoted);
            assertNoSecret(cleaned);
        }
    }

    @Test
    void urlsWithoutCredentialsStayAsTheyAre() {
        for (String each : new String[] {"jdbc:postgresql://127.0.0.1:5432/test?connectTimeout=1", "jdbc:h2:mem:x;DB_CLOSE_DELAY=-1;MODE=MySQL",
                "jdbc:mysql://(host=h,port=3306)/db", "jdbc:mariadb://[::1]:3306/db"}) {
            assertEquals(each, UrlCredentials.withoutCredentials(each));
            assertEquals(each, Redactor.URLS_ONLY.clean(each));
        }
    }

    @Test
    void scrubsUrlsInFreeText() {
        assertEquals("cannot reach jdbc:postgresql://db:5432/x?ssl=true, giving up",
                UrlCredentials.scrub("cannot reach jdbc:postgresql://app:" + PW + "@db:5432/x?password=" + PW + "&ssl=true, giving up"));
    }

    @Test
    void driverExceptionsAreCopiedCleanKeepingClassSqlStateAndStack() {
        String url = "jdbc:postgresql://postgres:" + PW + "@127.0.0.1:1/test";
        UnknownHostException root = new UnknownHostException("postgres:" + PW + "@127.0.0.1");
        SQLException driver = new SQLException("The connection attempt failed for " + url, "08001", root);
        Throwable cleaned = Redactor.of(url).clean(driver);
        assertNoSecret(trace(cleaned));
        assertEquals("java.sql.SQLException: [08001] The connection attempt failed for jdbc:postgresql://127.0.0.1:1/test", cleaned.getMessage());
        assertEquals("java.net.UnknownHostException: postgres:****@127.0.0.1", cleaned.getCause().getMessage());
        assertEquals(driver.getStackTrace().length, cleaned.getStackTrace().length);
        assertNoSecret(Redactor.of(url).messages(driver));
    }

    @Test
    void otherSecretsAreCleanedInTheirEncodingsToo() {
        Redactor redactor = Redactor.of(null, "user:" + PW);
        for (String each : InvalidSettingMessagesTest.forms("user:" + PW)) {
            assertFalse(redactor.clean("digest " + each + " rejected").contains(each));
        }
    }

    private static void assertNoSecret(final String text) {
        for (String each : InvalidSettingMessagesTest.forms(PW)) {
            assertFalse(text.contains(each), "'" + each + "' in: " + text);
        }
    }

    private static String trace(final Throwable error) {
        StringWriter out = new StringWriter();
        error.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
