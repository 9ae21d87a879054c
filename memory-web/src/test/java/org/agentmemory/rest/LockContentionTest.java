package org.agentmemory.rest;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ejb.EJBTransactionRolledbackException;
import jakarta.persistence.PessimisticLockException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class LockContentionTest {

    @Test
    void anH2LockTimeoutDeepInTheCausesIsContention() {
        SQLException h2 = new SQLException("Timeout trying to lock table", "HYT00", 50200);
        Throwable wrapped = new EJBTransactionRolledbackException("rolled back", new RuntimeException("flush", h2));
        assertThat(ExceptionMappers.lockContention(wrapped)).isEqualTo("SQL state HYT00");
    }

    @Test
    void postgresLockAndDeadlockStatesAndJpaLockExceptionsAreContention() {
        assertThat(ExceptionMappers.lockContention(new SQLException("x", "55P03")))
                .isEqualTo("SQL state 55P03");
        assertThat(ExceptionMappers.lockContention(new SQLException("x", "40P01")))
                .isEqualTo("SQL state 40P01");
        assertThat(ExceptionMappers.lockContention(new RuntimeException(new PessimisticLockException("x"))))
                .isEqualTo("PessimisticLockException");
    }

    @Test
    void otherFailuresAreNotContention() {
        assertThat(ExceptionMappers.lockContention(new SQLException("unique", "23505")))
                .isNull();
        assertThat(ExceptionMappers.lockContention(new IllegalStateException("boom")))
                .isNull();
    }
}
