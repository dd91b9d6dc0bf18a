import { authorizationSuite } from "./authorization/suite";

authorizationSuite(1, 3);
