// Generated from a deployment by scripts/local-chain.ts (ignition/parameters/local.json) by `npm run sdk:generate`. Do not edit: test/sdk/generated.test.ts fails on drift.

/** Songmint and Uniswap v4 contracts by deployment. `local`: the chain `npm start` runs (chain id 8453). */
export const songmintAddresses = {
  local: {
    chainId: 8453,
    SongNFT: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
    SongVault: '0xa513E6E4b8f2a923D98304ec87F64353C4D5C853',
    SongPoolHook: '0x1ff07184E5b8d3Cd4Af5bDea9B5715a0699068Cc',
    SongToken: '0x0165878A594ca255338adfa4d48449f69242Eb8F',
    PoolManager: '0x498581fF718922c3f8e6A244956aF099B2652b2b',
    UniversalRouter: '0x6fF5693b99212Da76ad316178A184AB56D299b43',
    Permit2: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
    V4Quoter: '0x0d5e0F971ED27FBfF6c2837bf31316121532048D',
  },
} as const;
