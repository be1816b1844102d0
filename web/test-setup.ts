import { configure } from '@testing-library/react';

/**
 * Component tests wait for a state, never for a time: `findBy…` and `waitFor` poll until the state appears.
 * The bound is generous so that a lazily loaded chunk on a busy two-core machine is waited for, not failed.
 */
configure({ asyncUtilTimeout: 15_000 });
